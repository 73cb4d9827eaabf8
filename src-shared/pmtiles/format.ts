/**
 * The PMTiles v3 header and tile ids (spec: github.com/protomaps/PMTiles, spec/v3/spec.md): the
 * 127-byte little-endian header, and the Hilbert-curve tile id that orders tiles in a clustered
 * archive. Pure: the reader in the engine and the writer here share these rules.
 */

export const HEADER_BYTES = 127;
/** Root directory, header included, must fit in the first 16 KiB a reader fetches. */
export const ROOT_LIMIT = 16_384;

export const COMPRESSION = { unknown: 0, none: 1, gzip: 2, brotli: 3, zstd: 4 } as const;
export const TILE_TYPE = { unknown: 0, mvt: 1, png: 2, jpeg: 3, webp: 4, avif: 5 } as const;

export type PmHeader = {
  rootOffset: number;
  rootLength: number;
  metadataOffset: number;
  metadataLength: number;
  leafOffset: number;
  leafLength: number;
  dataOffset: number;
  dataLength: number;
  addressedTiles: number;
  tileEntries: number;
  tileContents: number;
  clustered: boolean;
  internalCompression: number;
  tileCompression: number;
  tileType: number;
  minZoom: number;
  maxZoom: number;
  /** [minLon, minLat, maxLon, maxLat] */
  bounds: [number, number, number, number];
  centerZoom: number;
  centerLon: number;
  centerLat: number;
};

const MAGIC = [0x50, 0x4d, 0x54, 0x69, 0x6c, 0x65, 0x73]; // "PMTiles"

/** True when the bytes start with the PMTiles magic (checked before any byte of a source is kept). */
export function hasMagic(bytes: Uint8Array): boolean {
  return MAGIC.every((b, i) => bytes[i] === b);
}

const u64 = (v: DataView, at: number) => v.getUint32(at + 4, true) * 2 ** 32 + v.getUint32(at, true);

export function parseHeader(bytes: Uint8Array): PmHeader {
  if (bytes.length < HEADER_BYTES || !hasMagic(bytes)) throw new Error('not a PMTiles archive');
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (v.getUint8(7) !== 3) throw new Error(`PMTiles version ${v.getUint8(7)} (Blotter reads version 3)`);
  const deg = (at: number) => v.getInt32(at, true) / 1e7;
  return {
    rootOffset: u64(v, 8),
    rootLength: u64(v, 16),
    metadataOffset: u64(v, 24),
    metadataLength: u64(v, 32),
    leafOffset: u64(v, 40),
    leafLength: u64(v, 48),
    dataOffset: u64(v, 56),
    dataLength: u64(v, 64),
    addressedTiles: u64(v, 72),
    tileEntries: u64(v, 80),
    tileContents: u64(v, 88),
    clustered: v.getUint8(96) === 1,
    internalCompression: v.getUint8(97),
    tileCompression: v.getUint8(98),
    tileType: v.getUint8(99),
    minZoom: v.getUint8(100),
    maxZoom: v.getUint8(101),
    bounds: [deg(102), deg(106), deg(110), deg(114)],
    centerZoom: v.getUint8(118),
    centerLon: deg(119),
    centerLat: deg(123),
  };
}

export function encodeHeader(h: PmHeader): Uint8Array {
  const bytes = new Uint8Array(HEADER_BYTES);
  const v = new DataView(bytes.buffer);
  bytes.set(MAGIC, 0);
  v.setUint8(7, 3);
  const put64 = (at: number, n: number) => {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`header field out of range: ${n}`);
    v.setUint32(at, n % 2 ** 32, true);
    v.setUint32(at + 4, Math.floor(n / 2 ** 32), true);
  };
  const deg = (at: number, d: number) => v.setInt32(at, Math.round(d * 1e7), true);
  put64(8, h.rootOffset);
  put64(16, h.rootLength);
  put64(24, h.metadataOffset);
  put64(32, h.metadataLength);
  put64(40, h.leafOffset);
  put64(48, h.leafLength);
  put64(56, h.dataOffset);
  put64(64, h.dataLength);
  put64(72, h.addressedTiles);
  put64(80, h.tileEntries);
  put64(88, h.tileContents);
  v.setUint8(96, h.clustered ? 1 : 0);
  v.setUint8(97, h.internalCompression);
  v.setUint8(98, h.tileCompression);
  v.setUint8(99, h.tileType);
  v.setUint8(100, h.minZoom);
  v.setUint8(101, h.maxZoom);
  deg(102, h.bounds[0]);
  deg(106, h.bounds[1]);
  deg(110, h.bounds[2]);
  deg(114, h.bounds[3]);
  v.setUint8(118, h.centerZoom);
  deg(119, h.centerLon);
  deg(123, h.centerLat);
  return bytes;
}

/** Tiles on all zoom levels below z: the first tile id of zoom z. */
const firstIdOf = (z: number): number => (4 ** z - 1) / 3;

/** The Hilbert-curve tile id of z/x/y (PMTiles v3). */
export function tileIdOf(z: number, x: number, y: number): number {
  if (z > 26) throw new RangeError('zoom above 26');
  const n = 2 ** z;
  if (x < 0 || y < 0 || x >= n || y >= n) throw new RangeError(`tile ${z}/${x}/${y} outside the zoom`);
  let acc = firstIdOf(z);
  let tx = x;
  let ty = y;
  for (let s = n / 2; s >= 1; s /= 2) {
    const rx = tx & s ? 1 : 0;
    const ry = ty & s ? 1 : 0;
    acc += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) {
        tx = s - 1 - tx;
        ty = s - 1 - ty;
      }
      [tx, ty] = [ty, tx];
    }
  }
  return acc;
}

/** The z/x/y of a Hilbert tile id (inverse of tileIdOf). */
export function zxyOf(tileId: number): { z: number; x: number; y: number } {
  let z = 0;
  while (firstIdOf(z + 1) <= tileId) z++;
  let t = tileId - firstIdOf(z);
  const n = 2 ** z;
  let x = 0;
  let y = 0;
  for (let s = 1; s < n; s *= 2) {
    const rx = 1 & Math.floor(t / 2);
    const ry = 1 & (t ^ rx);
    if (ry === 0) {
      if (rx === 1) {
        x = s - 1 - x;
        y = s - 1 - y;
      }
      [x, y] = [y, x];
    }
    x += s * rx;
    y += s * ry;
    t = Math.floor(t / 4);
  }
  return { z, x, y };
}

/** Web Mercator tile math (XYZ numbering, y down), clamped to the zoom's tiles. */
export const MAX_MERCATOR_LAT = 85.0511287;
const clampTile = (v: number, n: number) => Math.min(n - 1, Math.max(0, Math.floor(v)));
export const tileX = (lon: number, z: number): number => clampTile(((lon + 180) / 360) * 2 ** z, 2 ** z);
export function tileY(lat: number, z: number): number {
  const r = (Math.max(-MAX_MERCATOR_LAT, Math.min(MAX_MERCATOR_LAT, lat)) * Math.PI) / 180;
  return clampTile(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z, 2 ** z);
}
