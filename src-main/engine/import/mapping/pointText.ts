/**
 * A location written in one cell, as open-data portals and GIS tools export it: WKT
 * `POINT (-87.63 41.88)` (Socrata's point columns, ArcGIS, PostGIS; `POINT Z (…)` too, its extra
 * numbers ignored) or Socrata's older location column `(41.88, -87.63)`, latitude first. A mapping
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

/** The point a cell holds, or null when it holds none. */
export function pointText(cell: string): PointText | null {
  const s = cell.trim();
  if (s.length > MAX_POINT_CHARS) return null;
  let m = WKT.exec(s);
  if (m) return { x: Number(m[1]), y: Number(m[2]) };
  m = PAIR.exec(s);
  return m ? { x: Number(m[2]), y: Number(m[1]) } : null;
}

export const POINT_EXPECTED = 'a point such as POINT (-87.63 41.88) or (41.88, -87.63)';
