/**
 * Pairs of points within a distance (metres), found once with a uniform grid of that cell size:
 * each point looks only at its own and the eight neighbouring cells. Used by the Knox test and by
 * repeat locations. `countClosePairs` counts them without keeping them and stops past a limit, so
 * a distance that would make too many pairs is refused before they are built (bounds.ts).
 */

export type Pairs = { size: number; i: Int32Array; j: Int32Array; d: Float64Array };

/**
 * Calls `visit(a, b, d)` for every pair a < b within `maxD` (or strictly closer when `strict`),
 * until it answers false. Answers the fraction of the points whose cells were gone through.
 */
function eachClosePair(
  x: Float64Array,
  y: Float64Array,
  maxD: number,
  strict: boolean,
  visit: (a: number, b: number, d2: number) => boolean,
): number {
  const n = x.length;
  if (n < 2) return 1;
  const cell = maxD > 0 ? maxD : 1;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  for (let k = 0; k < n; k++) {
    minX = Math.min(minX, x[k] as number);
    minY = Math.min(minY, y[k] as number);
    maxX = Math.max(maxX, x[k] as number);
  }
  const cols = Math.floor((maxX - minX) / cell) + 1;
  // Points sorted by cell (counting sort on a hash of the cell), so a cell's points are contiguous.
  const key = new Float64Array(n);
  for (let k = 0; k < n; k++)
    key[k] =
      Math.floor(((y[k] as number) - minY) / cell) * cols + Math.floor(((x[k] as number) - minX) / cell);
  const order = new Int32Array(n);
  for (let k = 0; k < n; k++) order[k] = k;
  order.sort((a, b) => (key[a] as number) - (key[b] as number));
  const start = new Map<number, number>();
  for (let k = 0; k < n; k++) {
    const c = key[order[k] as number] as number;
    if (!start.has(c)) start.set(c, k);
  }
  const d2max = maxD * maxD;
  let done = 0;
  for (const [c, first] of start) {
    const cx = c % cols;
    const cy = (c - cx) / cols;
    let last = first;
    while (last < n && key[order[last] as number] === c) last++;
    for (let dy = 0; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        if (dy === 0 && dx < 0) continue; // each pair of cells once
        const nx = cx + dx;
        if (nx < 0 || nx >= cols) continue;
        const other = (cy + dy) * cols + nx;
        const from = start.get(other);
        if (from === undefined) continue;
        const same = other === c;
        for (let a = first; a < last; a++) {
          const ia = order[a] as number;
          const xa = x[ia] as number;
          const ya = y[ia] as number;
          for (let b = same ? a + 1 : from; b < n && key[order[b] as number] === other; b++) {
            const ib = order[b] as number;
            const ddx = (x[ib] as number) - xa;
            const ddy = (y[ib] as number) - ya;
            const d2 = ddx * ddx + ddy * ddy;
            if (strict ? d2 < d2max : d2 <= d2max) {
              const more = ia < ib ? visit(ia, ib, d2) : visit(ib, ia, d2);
              if (!more) return (done + (a - first)) / n;
            }
          }
        }
      }
    done += last - first;
  }
  return 1;
}

/**
 * How many pairs i < j lie within `maxD` (or strictly closer when `strict`), counted up to
 * `limit`: past it the count stops at limit + 1, and `fraction` says how much of the points had
 * been gone through (so the caller can judge how far beyond the limit the whole is).
 */
export function countClosePairs(
  x: Float64Array,
  y: Float64Array,
  maxD: number,
  limit: number,
  strict = false,
): { count: number; fraction: number } {
  let count = 0;
  const fraction = eachClosePair(x, y, maxD, strict, () => ++count <= limit);
  return { count, fraction };
}

/** Every pair i < j with distance ≤ `maxD` (or < `maxD` when `strict`); `expected`: room to start with. */
export function closePairs(
  x: Float64Array,
  y: Float64Array,
  maxD: number,
  strict = false,
  expected = 1024,
): Pairs {
  let cap = Math.max(1, expected);
  let pi = new Int32Array(cap);
  let pj = new Int32Array(cap);
  let pd = new Float64Array(cap);
  let size = 0;
  eachClosePair(x, y, maxD, strict, (a, b, d2) => {
    if (size === cap) {
      cap *= 2;
      const ni = new Int32Array(cap);
      const nj = new Int32Array(cap);
      const nd = new Float64Array(cap);
      ni.set(pi);
      nj.set(pj);
      nd.set(pd);
      [pi, pj, pd] = [ni, nj, nd];
    }
    pi[size] = a;
    pj[size] = b;
    pd[size++] = Math.sqrt(d2);
    return true;
  });
  return { size, i: pi, j: pj, d: pd };
}

/**
 * The largest distance below `maxD` (which holds more than `limit` pairs) within which there are
 * at most `limit` pairs, to about 2 % (0 when even the same place holds more). Each probe counts
 * no further than the limit; from a distance that fits, the next guess takes the pairs as growing
 * with the square of the distance, so a few probes do.
 */
export function largestDistanceWithin(
  x: Float64Array,
  y: Float64Array,
  maxD: number,
  limit: number,
  strict = false,
): number {
  const countAt = (d: number) => countClosePairs(x, y, d, limit, strict).count;
  let hi = maxD;
  let lo = maxD / 2;
  let counted = countAt(lo);
  while (counted > limit) {
    hi = lo;
    lo /= 4;
    if (lo < 1e-3) return 0;
    counted = countAt(lo);
  }
  for (let k = 0; k < 30 && hi / lo > 1.02; k++) {
    let guess = lo * Math.sqrt(limit / Math.max(counted, 1));
    guess = Math.max(guess, lo * 1.02);
    if (guess >= hi) guess = Math.sqrt(lo * hi);
    const c = countAt(guess);
    if (c <= limit) [lo, counted] = [guess, c];
    else hi = guess;
  }
  return lo;
}
