/**
 * The IANA time zone at a point, from geo-tz's boundary data (the 1970-merged set: zones that agree
 * since 1970 are merged, which is all a 20YY date needs). Most points are answered by their 0.05°
 * cell (`zoneCells.ts`: a cell geo-tz's data puts wholly in one zone, worked out once, then one Map
 * lookup on a numeric key); points in a cell that a zone boundary, a quad edge of geo-tz's index or
 * the coast crosses take geo-tz's exact lookup. Either way the answer is geo-tz's own.
 */
import { find } from 'geo-tz';
import { cellKey, resolveCell } from './zoneCells';

const cells = new Map<number, string | null>();
const MAX_CELLS = 200_000;

export function zoneAt(lat: number, lon: number): string {
  if (lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180) {
    const key = cellKey(lat, lon);
    let zone = cells.get(key);
    if (zone === undefined) {
      zone = resolveCell(key);
      if (cells.size >= MAX_CELLS) cells.clear();
      cells.set(key, zone);
    }
    if (zone !== null) return zone;
  }
  return exactZoneAt(lat, lon);
}

/** geo-tz's lookup for the point itself (what every cell's answer equals). */
export function exactZoneAt(lat: number, lon: number): string {
  return find(lat, lon)[0] ?? fallbackZone(lon);
}

/** Open water has no civil zone: the nautical zone of the longitude (Etc/GMT signs are inverted). */
function fallbackZone(lon: number): string {
  const hours = Math.round(lon / 15);
  if (hours === 0) return 'Etc/GMT';
  return hours > 0 ? `Etc/GMT-${hours}` : `Etc/GMT+${-hours}`;
}
