/**
 * PMTiles v3 directories: entries (tile id, offset, length, run length; run length 0 = a leaf
 * directory) serialised as varint columns — count, tile id deltas, run lengths, lengths, offsets
 * (0 = right after the previous entry, else offset + 1).
 */

export type PmEntry = { tileId: number; offset: number; length: number; runLength: number };

export function parseDirectory(bytes: Uint8Array): PmEntry[] {
  let pos = 0;
  const varint = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const b = bytes[pos++];
      if (b === undefined) throw new Error('a damaged directory');
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 128;
    }
  };
  const n = varint();
  const entries: PmEntry[] = [];
  let last = 0;
  for (let i = 0; i < n; i++) {
    last += varint();
    entries.push({ tileId: last, offset: 0, length: 0, runLength: 1 });
  }
  for (const e of entries) e.runLength = varint();
  for (const e of entries) e.length = varint();
  entries.forEach((e, i) => {
    const v = varint();
    const prev = entries[i - 1];
    e.offset = v === 0 && prev ? prev.offset + prev.length : v - 1;
  });
  return entries;
}

/** Grows as varints are pushed; `bytes()` returns what was written. */
class VarintBuffer {
  private buf = new Uint8Array(1024);
  private len = 0;
  push(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`varint out of range: ${value}`);
    if (this.len + 10 > this.buf.length) {
      const next = new Uint8Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    let v = value;
    while (v >= 0x80) {
      this.buf[this.len++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.len++] = v;
  }
  bytes(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

/** Serialises entries sorted by tile id (uncompressed). */
export function encodeDirectory(entries: readonly PmEntry[]): Uint8Array {
  const out = new VarintBuffer();
  out.push(entries.length);
  let last = 0;
  for (const e of entries) {
    if (e.tileId < last) throw new Error('directory entries must ascend by tile id');
    out.push(e.tileId - last);
    last = e.tileId;
  }
  for (const e of entries) out.push(e.runLength);
  for (const e of entries) out.push(e.length);
  entries.forEach((e, i) => {
    const prev = entries[i - 1];
    out.push(i > 0 && prev && e.offset === prev.offset + prev.length ? 0 : e.offset + 1);
  });
  return out.bytes();
}

/** The entry holding `tileId` (a tile, or a leaf directory when runLength is 0), or null. */
export function findEntry(entries: readonly PmEntry[], tileId: number): PmEntry | null {
  let lo = 0;
  let hi = entries.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const e = entries[mid] as PmEntry;
    if (e.tileId < tileId) lo = mid + 1;
    else if (e.tileId > tileId) hi = mid - 1;
    else return e;
  }
  const before = entries[hi];
  if (before && (before.runLength === 0 || tileId - before.tileId < before.runLength)) return before;
  return null;
}
