/**
 * A minimal baseline GeoTIFF writer: one band of 32-bit floats, uncompressed, one strip, in
 * EPSG:4326 (GeoKeys: geographic model, pixel-is-area, WGS 84, degrees), with GDAL's nodata tag.
 * Enough for QGIS, ArcGIS and GDAL (checked with `gdalinfo` in the tests); no library needed.
 */

export type GeoRaster = {
  width: number;
  height: number;
  /** Row-major, the first row northernmost. */
  data: Float32Array;
  /** Longitude of the west edge and latitude of the north edge of the raster, degrees. */
  west: number;
  north: number;
  /** Pixel size in degrees (both positive). */
  xRes: number;
  yRes: number;
  nodata: number;
};

const SHORT = 3;
const LONG = 4;
const ASCII = 2;
const DOUBLE = 12;
const TYPE_BYTES: Record<number, number> = { [SHORT]: 2, [LONG]: 4, [ASCII]: 1, [DOUBLE]: 8 };

type Entry = { tag: number; type: number; values: number[] | string };

export function writeGeoTiff(r: GeoRaster): Uint8Array {
  if (r.data.length !== r.width * r.height) throw new RangeError('The raster data does not match its size.');
  const imageBytes = r.width * r.height * 4;
  const geoKeys = [1, 1, 0, 4, 1024, 0, 1, 2, 1025, 0, 1, 1, 2048, 0, 1, 4326, 2054, 0, 1, 9102];
  const entries: Entry[] = [
    { tag: 256, type: LONG, values: [r.width] },
    { tag: 257, type: LONG, values: [r.height] },
    { tag: 258, type: SHORT, values: [32] },
    { tag: 259, type: SHORT, values: [1] },
    { tag: 262, type: SHORT, values: [1] },
    { tag: 273, type: LONG, values: [0] }, // patched below
    { tag: 277, type: SHORT, values: [1] },
    { tag: 278, type: LONG, values: [r.height] },
    { tag: 279, type: LONG, values: [imageBytes] },
    { tag: 284, type: SHORT, values: [1] },
    { tag: 339, type: SHORT, values: [3] },
    { tag: 33550, type: DOUBLE, values: [r.xRes, r.yRes, 0] },
    { tag: 33922, type: DOUBLE, values: [0, 0, 0, r.west, r.north, 0] },
    { tag: 34735, type: SHORT, values: geoKeys },
    { tag: 42113, type: ASCII, values: `${r.nodata}\0` },
  ];
  const ifdBytes = 2 + entries.length * 12 + 4;
  const count = (e: Entry) => e.values.length;
  const size = (e: Entry) => count(e) * (TYPE_BYTES[e.type] as number);
  const align = (n: number) => (n + 7) & ~7;
  // Layout: header, IFD, the values that do not fit in 4 bytes, then the image.
  let cursor = align(8 + ifdBytes);
  const offsets = new Map<Entry, number>();
  for (const e of entries)
    if (size(e) > 4) {
      offsets.set(e, cursor);
      cursor = align(cursor + size(e));
    }
  const imageOffset = cursor;
  (entries[5] as Entry).values = [imageOffset];
  const buf = new ArrayBuffer(imageOffset + imageBytes);
  const v = new DataView(buf);
  v.setUint8(0, 0x49);
  v.setUint8(1, 0x49);
  v.setUint16(2, 42, true);
  v.setUint32(4, 8, true);
  v.setUint16(8, entries.length, true);
  const put = (e: Entry, at: number) => {
    if (typeof e.values === 'string') {
      for (let k = 0; k < e.values.length; k++) v.setUint8(at + k, e.values.charCodeAt(k));
      return;
    }
    e.values.forEach((x, k) => {
      if (e.type === SHORT) v.setUint16(at + 2 * k, x, true);
      else if (e.type === LONG) v.setUint32(at + 4 * k, x, true);
      else v.setFloat64(at + 8 * k, x, true);
    });
  };
  entries.forEach((e, k) => {
    const at = 10 + k * 12;
    v.setUint16(at, e.tag, true);
    v.setUint16(at + 2, e.type, true);
    v.setUint32(at + 4, count(e), true);
    const far = offsets.get(e);
    if (far === undefined) put(e, at + 8);
    else {
      v.setUint32(at + 8, far, true);
      put(e, far);
    }
  });
  v.setUint32(10 + entries.length * 12, 0, true);
  const pixels = new Float32Array(buf, imageOffset, r.width * r.height);
  pixels.set(r.data); // little-endian hosts (x86, ARM) write the TIFF's 'II' order directly
  return new Uint8Array(buf);
}
