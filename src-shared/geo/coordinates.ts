/**
 * Positions: what counts as one on Earth, and coordinates typed by a person — "41.88, -87.63",
 * "41.88 -87.63", "41.88N 87.63W", "41°52'48\"N 87°37'48\"W". Latitude first unless the
 * hemispheres say otherwise.
 */
export type Position = { lat: number; lon: number };

/** A finite latitude in [-90, 90]. */
export const isLatitude = (lat: number): boolean => Math.abs(lat) <= 90;
/** A finite longitude in [-180, 180]. */
export const isLongitude = (lon: number): boolean => Math.abs(lon) <= 180;

const PART =
  /(-?\d+(?:\.\d+)?)\s*(?:°\s*(?:(\d+(?:\.\d+)?)\s*['′]\s*(?:(\d+(?:\.\d+)?)\s*(?:"|″|'')\s*)?)?)?\s*([NSEW])?/giy;

type Part = { value: number; hemi: string | null };

function parts(text: string): Part[] | null {
  const out: Part[] = [];
  let rest = text.trim();
  while (rest.length > 0) {
    PART.lastIndex = 0;
    const m = PART.exec(rest);
    if (!m || m[0].length === 0) return null;
    const sign = (m[1] ?? '').startsWith('-') ? -1 : 1;
    const value = Math.abs(Number(m[1])) + Number(m[2] ?? 0) / 60 + Number(m[3] ?? 0) / 3600;
    out.push({ value: sign * value, hemi: m[4]?.toUpperCase() ?? null });
    rest = rest.slice(m[0].length).replace(/^[\s,;]+/, '');
  }
  return out;
}

/** The position typed coordinates name; null when they are not a position on Earth. */
export function parseCoordinates(text: string): Position | null {
  const found = parts(text);
  if (!found || found.length !== 2) return null;
  let [a, b] = found as [Part, Part];
  if (a.hemi === 'E' || a.hemi === 'W' || b.hemi === 'N' || b.hemi === 'S') [a, b] = [b, a];
  const lat = a.hemi === 'S' ? -Math.abs(a.value) : a.value;
  const lon = b.hemi === 'W' ? -Math.abs(b.value) : b.value;
  if (!(isLatitude(lat) && isLongitude(lon))) return null;
  return { lat, lon };
}
