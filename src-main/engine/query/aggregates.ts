/** History aggregates over the filter's rows: the hour × weekday grid and the top locations. */
import type { GridResult, TopLocationsResult } from '../../../src-shared/incidentQueries';
import { repeatPlaces, zoneOfRow } from './repeatPlaces';
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

export { MIN_REPEAT } from './repeatPlaces';

/**
 * The addresses with the most incidents, each with at least MIN_REPEAT (the one rule of
 * repeatPlaces.ts, which the Analysis view's repeat locations share), with the zone of their
 * latest incident so it is shown in local time.
 */
export function topLocations({ snapshot, set }: Resolved, limit: number): TopLocationsResult {
  const { places } = repeatPlaces(snapshot, set.rows, limit);
  return {
    locations: places.map((p) => ({
      address: p.address,
      count: p.count,
      lat: p.lat,
      lon: p.lon,
      topType: p.topType,
      lastUtc: snapshot.utc[p.lastRow] as number,
      lastZone: zoneOfRow(snapshot, p.lastRow),
    })),
  };
}
