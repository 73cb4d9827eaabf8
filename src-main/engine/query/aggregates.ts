/** History aggregates over the filter's rows: the hour × weekday grid and the top locations. */
import type { GridResult, TopLocationsResult } from '../../../src-shared/incidentQueries';
import type { Resolved } from './service';

/** counts[weekday][hour] in the incidents' local time. */
export function hourWeekdayGrid({ snapshot, set }: Resolved): GridResult {
  const cells = new Uint32Array(7 * 24);
  const rows = set.rows;
  for (let j = 0; j < rows.length; j++) {
    const row = rows[j] as number;
    const cell = (snapshot.weekday[row] as number) * 24 + (snapshot.hour[row] as number);
    cells[cell] = (cells[cell] as number) + 1;
  }
  const counts = Array.from({ length: 7 }, (_, w) => Array.from(cells.subarray(w * 24, w * 24 + 24)));
  let max = 0;
  for (const c of cells) if (c > max) max = c;
  return { counts, total: set.count, max };
}

/** A repeat location has at least this many incidents; an address seen once is not a pattern. */
export const MIN_REPEAT = 2;

/**
 * The addresses with the most incidents, each with at least MIN_REPEAT (ties: the lower address
 * id, i.e. seen first), with the zone of their latest incident so it is shown in local time.
 */
export function topLocations({ snapshot, set }: Resolved, limit: number): TopLocationsResult {
  const rows = set.rows;
  const a = snapshot.addresses.size;
  const counts = new Uint32Array(a);
  for (let j = 0; j < rows.length; j++) {
    const row = rows[j] as number;
    const id = snapshot.addr[row] as number;
    counts[id] = (counts[id] as number) + 1;
  }
  // The best `limit` in a small sorted list; most addresses fail the first comparison.
  const top: number[] = [];
  let floor = 0;
  for (let id = 0; id < a; id++) {
    const c = counts[id] as number;
    if (c < MIN_REPEAT || (top.length === limit && c <= floor)) continue;
    let at = top.length;
    while (at > 0 && c > (counts[top[at - 1] as number] as number)) at--;
    top.splice(at, 0, id);
    if (top.length > limit) top.pop();
    floor = counts[top[top.length - 1] as number] as number;
  }
  // A second pass over the rows of the top addresses: position, latest incident, leading type.
  const slot = new Int32Array(a).fill(-1);
  top.forEach((id, k) => (slot[id] = k));
  const types = snapshot.types.size;
  const typeCounts = new Uint32Array(top.length * types);
  const sumLat = new Float64Array(top.length);
  const sumLon = new Float64Array(top.length);
  const last = new Float64Array(top.length).fill(-Infinity);
  const lastRow = new Int32Array(top.length).fill(-1);
  for (let j = 0; j < rows.length; j++) {
    const row = rows[j] as number;
    const k = slot[snapshot.addr[row] as number] as number;
    if (k < 0) continue;
    const cell = k * types + (snapshot.type[row] as number);
    typeCounts[cell] = (typeCounts[cell] as number) + 1;
    sumLat[k] = (sumLat[k] as number) + (snapshot.lat[row] as number);
    sumLon[k] = (sumLon[k] as number) + (snapshot.lon[row] as number);
    if ((snapshot.utc[row] as number) > (last[k] as number)) {
      last[k] = snapshot.utc[row] as number;
      lastRow[k] = row;
    }
  }
  return {
    locations: top.map((id, k) => {
      const n = counts[id] as number;
      let best = 0;
      for (let t = 1; t < types; t++) {
        if ((typeCounts[k * types + t] as number) > (typeCounts[k * types + best] as number)) best = t;
      }
      return {
        address: snapshot.addresses.values[id] as string,
        count: n,
        lat: (sumLat[k] as number) / n,
        lon: (sumLon[k] as number) / n,
        topType: snapshot.types.values[best] as string,
        lastUtc: last[k] as number,
        lastZone: snapshot.zones.values[snapshot.zone[lastRow[k] as number] as number] ?? 'UTC',
      };
    }),
  };
}
