/**
 * A location written in one cell, as open-data portals and GIS tools export it: WKT
 * `POINT (-87.63 41.88)` (Socrata's point columns, ArcGIS, PostGIS; `POINT Z (…)` too, its extra
 * numbers ignored), Socrata's older location column `(41.88, -87.63)`, latitude first, or a point as
 * hex WKB or PostGIS's EWKB (`0101000020E6100000…`, as Carto and PostGIS exports write `the_geom`). A mapping
 * reads such a column by naming it as both coordinates (latitude and longitude, or X and Y).
 */

/** The point's numbers in X, Y order (longitude, latitude; or easting, northing). */
export type PointText = { x: number; y: number };

// One way to match each number (`\d+(?:\.\d*)?`, not `\d+\.?\d*`, which splits a run of digits
// every way before failing: a 16,000-digit cell took half a second).
const NUM = '([-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?)';
/** The most characters a point cell (spaces around it aside) is read with; a longer cell holds no point. */
const MAX_POINT_CHARS = 200;
const WKT = new RegExp(`^POINT\\s*(?:ZM|Z|M)?\\s*\\(\\s*${NUM}\\s+${NUM}(?:\\s+${NUM}){0,2}\\s*\\)$`, 'i');
const PAIR = new RegExp(`^\\(\\s*${NUM}\\s*,\\s*${NUM}\\s*\\)$`);

/** A point as hex WKB (21 bytes) or EWKB with an SRID (25), a Z or M (29–41): its byte order first. */
const HEX_WKB = /^0[01](?:[0-9a-f]{2}){20,40}$/i;

/** The point a cell holds, or null when it holds none. */
export function pointText(cell: string): PointText | null {
  const s = cell.trim();
  if (s.length > MAX_POINT_CHARS) return null;
  let m = WKT.exec(s);
  if (m) return { x: Number(m[1]), y: Number(m[2]) };
  m = PAIR.exec(s);
  if (m) return { x: Number(m[2]), y: Number(m[1]) };
  return HEX_WKB.test(s) ? hexWkbPoint(s) : null;
}

/** A WKB or EWKB Point (ISO Z/M codes 1001–3001 and EWKB's Z/M/SRID flags too), or null for any other geometry. */
function hexWkbPoint(hex: string): PointText | null {
  const view = new DataView(Uint8Array.from(Buffer.from(hex, 'hex')).buffer);
  const little = view.getUint8(0) === 1;
  const type = view.getUint32(1, little);
  const srid = (type & 0x20000000) !== 0;
  if ((type & 0x0fffffff) % 1000 !== 1) return null;
  const at = srid ? 9 : 5;
  if (view.byteLength < at + 16) return null;
  const x = view.getFloat64(at, little);
  const y = view.getFloat64(at + 8, little);
  return Number.isFinite(x) && Number.isFinite(y) ? { x, y } : null;
}

export const POINT_EXPECTED = 'a point such as POINT (-87.63 41.88), (41.88, -87.63) or hex WKB';
