/**
 * The PMTiles v3 format, read with Node only (the `pmtiles` package bundles a browser gzip shim that
 * cannot live in the engine's bundle): the 127-byte header, Hilbert tile ids, varint directories
 * (root and leaf), and gzip-compressed internals via zlib. Spec: github.com/protomaps/PMTiles (v3).
 */
import { gunzipSync } from 'node:zlib';

export type PmHeader = {
  rootOffset: number;
  rootLength: number;
  metadataOffset: number;
  metadataLength: number;
  leafOffset: number;
  dataOffset: number;
  internalCompression: number;
  tileCompression: number;
  tileType: number;
  minZoom: number;
  maxZoom: number;
  bounds: [number, number, number, number];
};

export type PmEntry = { tileId: number; offset: number; length: number; runLength: number };

export const COMPRESSION = { unknown: 0, none: 1, gzip: 2 } as const;
export const TILE_TYPE = { unknown: 0, mvt: 1, png: 2, jpeg: 3, webp: 4 } as const;

const u64 = (v: DataView, at: number) => v.getUint32(at + 4, true) * 2 ** 32 + v.getUint32(at, true);

export function parseHeader(bytes: Uint8Array): PmHeader {
  if (bytes.length < 127 || new TextDecoder().decode(bytes.subarray(0, 7)) !== 'PMTiles') {
    throw new Error('not a PMTiles archive');
  }
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (v.getUint8(7) !== 3) throw new Error(`PMTiles version ${v.getUint8(7)} (Blotter reads version 3)`);
  const deg = (at: number) => v.getInt32(at, true) / 1e7;
  return {
    rootOffset: u64(v, 8),
    rootLength: u64(v, 16),
    metadataOffset: u64(v, 24),
    metadataLength: u64(v, 32),
    leafOffset: u64(v, 40),
    dataOffset: u64(v, 56),
    internalCompression: v.getUint8(97),
    tileCompression: v.getUint8(98),
    tileType: v.getUint8(99),
    minZoom: v.getUint8(100),
    maxZoom: v.getUint8(101),
    bounds: [deg(102), deg(106), deg(110), deg(114)],
  };
}

/** The Hilbert-curve tile id of z/x/y (PMTiles v3). */
export function tileIdOf(z: number, x: number, y: number): number {
  let acc = ((1 << z) * (1 << z) - 1) / 3;
  let a = z - 1;
  let tx = x;
  let ty = y;
  for (let s = 1 << a; s > 0; s >>= 1) {
    const rx = tx & s;
    const ry = ty & s;
    acc += ((3 * rx) ^ ry) * 2 ** a;
    if (ry === 0) {
      if (rx !== 0) [tx, ty] = [s - 1 - ty, s - 1 - tx];
      else [tx, ty] = [ty, tx];
    }
    a--;
  }
  return acc;
}

export function decompress(bytes: Uint8Array, compression: number): Uint8Array {
  if (compression === COMPRESSION.none || compression === COMPRESSION.unknown) return bytes;
  if (compression === COMPRESSION.gzip) return new Uint8Array(gunzipSync(bytes));
  throw new Error('a compression other than gzip (Blotter reads gzip or none)');
}

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

/** The entry holding `tileId` (a tile, or a leaf directory when runLength is 0), or null. */
export function findEntry(entries: PmEntry[], tileId: number): PmEntry | null {
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
