/**
 * The IANA time zone at a point, from geo-tz's boundary data (the 1970-merged set: zones that agree
 * since 1970 are merged, which is all a 20YY date needs). geo-tz is fast once its data is warm; a
 * small cache keyed by the point rounded to 1e-4 degrees (about 11 m) still saves work for incidents
 * that share a block.
 */
import { find } from 'geo-tz';

const cache = new Map<string, string>();
const MAX_CACHE = 50_000;

export function zoneAt(lat: number, lon: number): string {
  const key = `${lat.toFixed(4)},${lon.toFixed(4)}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const zone = find(lat, lon)[0] ?? fallbackZone(lon);
  if (cache.size >= MAX_CACHE) cache.clear();
  cache.set(key, zone);
  return zone;
}

/** Open water has no civil zone: the nautical zone of the longitude (Etc/GMT signs are inverted). */
function fallbackZone(lon: number): string {
  const hours = Math.round(lon / 15);
  if (hours === 0) return 'Etc/GMT';
  return hours > 0 ? `Etc/GMT-${hours}` : `Etc/GMT+${-hours}`;
}
