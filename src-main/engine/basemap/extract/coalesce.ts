/**
 * Coalesced range requests: tile contents sorted by offset are joined into one request when they
 * are contiguous, or when the gap between them is small and the gaps accepted so far stay within
 * an overhead budget (so bytes fetched / bytes kept ≤ 1 + maxOverhead). Smallest gaps go first;
 * a request never spans more than maxRequestBytes (progress and resume stay fine-grained).
 */
export type ByteRange = { offset: number; length: number };
export type RangeRequest = ByteRange & { parts: ByteRange[] };

export type CoalesceOptions = { maxOverhead?: number; maxGap?: number; maxRequestBytes?: number };

export function coalesce(ranges: readonly ByteRange[], opts: CoalesceOptions = {}): RangeRequest[] {
  const maxOverhead = opts.maxOverhead ?? 0.1;
  const maxGap = opts.maxGap ?? 256 * 1024;
  const maxRequest = opts.maxRequestBytes ?? 8 * 1024 * 1024;
  const sorted = [...ranges].sort((a, b) => a.offset - b.offset);
  if (sorted.length === 0) return [];
  const kept = sorted.reduce((n, r) => n + r.length, 0);
  // gaps[i] is between sorted[i] and sorted[i + 1]; contiguous (0) always joins.
  const gaps = sorted.slice(1).map((r, i) => {
    const prev = sorted[i] as ByteRange;
    return { i, gap: r.offset - (prev.offset + prev.length) };
  });
  const join = new Uint8Array(gaps.length);
  let budget = kept * maxOverhead;
  for (const g of [...gaps].sort((a, b) => a.gap - b.gap)) {
    if (g.gap > maxGap || g.gap > budget) break;
    join[g.i] = 1;
    budget -= g.gap;
  }
  const out: RangeRequest[] = [];
  let cur: RangeRequest | null = null;
  sorted.forEach((r, k) => {
    const end = r.offset + r.length;
    if (cur && k > 0 && join[k - 1] && end - cur.offset <= maxRequest) {
      cur.parts.push(r);
      cur.length = end - cur.offset;
    } else {
      cur = { offset: r.offset, length: r.length, parts: [r] };
      out.push(cur);
    }
  });
  return out;
}
