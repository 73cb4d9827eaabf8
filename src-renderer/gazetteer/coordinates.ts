/**
 * Coordinates typed by a person: "41.88, -87.63", "41.88 -87.63", "41.88N 87.63W",
 * "41°52'48\"N 87°37'48\"W". Latitude first. Null when it is not a position on Earth.
 */
export type LatLon = { lat: number; lon: number };

const PART =
  /(-?\d+(?:\.\d+)?)\s*(?:°\s*(?:(\d+(?:\.\d+)?)\s*['′]\s*(?:(\d+(?:\.\d+)?)\s*(?:"|″|'')\s*)?)?)?\s*([NSEW])?/giy;

function parts(text: string): { value: number; hemi: string | null }[] | null {
  const out: { value: number; hemi: string | null }[] = [];
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

export function parseCoordinates(text: string): LatLon | null {
  const found = parts(text);
  if (!found || found.length !== 2) return null;
  let [a, b] = found as [{ value: number; hemi: string | null }, { value: number; hemi: string | null }];
  if (a.hemi === 'E' || a.hemi === 'W' || b.hemi === 'N' || b.hemi === 'S') [a, b] = [b, a];
  const lat = a.hemi === 'S' ? -Math.abs(a.value) : a.value;
  const lon = b.hemi === 'W' ? -Math.abs(b.value) : b.value;
  if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180)) return null;
  return { lat, lon };
}
