/**
 * A repeat location as the Analysis view, the CLI and History read it (issue 26, item 5): its
 * block address and leading type in History's words (query/repeatPlaces.ts, the one grouping
 * rule), its first and latest incident as instants with their zones (shown in local time), its
 * local days, its incidents' ids for a drill-down, and how far its farthest incident lies from its
 * mean position.
 */
import type { RepeatGroupOut } from '../../../src-shared/analysis';
import { dayString } from '../../../src-shared/filters';
import { milesBetween, METRES_PER_MILE } from '../../../src-shared/geo';
import { zoneOfRow } from '../query/repeatPlaces';
import type { Snapshot } from '../query/snapshot';

/** The most frequent value among rows (ties: the one seen first). */
function commonest(rows: readonly number[], of: (row: number) => number): number {
  const counts = new Map<number, number>();
  let best = -1;
  let bestCount = 0;
  for (const row of rows) {
    const v = of(row);
    const c = (counts.get(v) ?? 0) + 1;
    counts.set(v, c);
    if (c > bestCount) [best, bestCount] = [v, c];
  }
  return best;
}

/**
 * The place of `rows` (snapshot rows, two or more). `named`: its address, leading type and
 * position as repeatPlaces gave them (a place by block address); else (a group by distance) the
 * commonest address and type of its incidents and their mean position.
 */
export function repeatPlaceOut(
  snapshot: Snapshot,
  rows: readonly number[],
  named?: { address: string; topType: string; lat: number; lon: number },
): RepeatGroupOut {
  let sLat = 0;
  let sLon = 0;
  let firstRow = rows[0] as number;
  let lastRow = firstRow;
  for (const row of rows) {
    sLat += snapshot.lat[row] as number;
    sLon += snapshot.lon[row] as number;
    if ((snapshot.utc[row] as number) < (snapshot.utc[firstRow] as number)) firstRow = row;
    if ((snapshot.utc[row] as number) > (snapshot.utc[lastRow] as number)) lastRow = row;
  }
  const lat = named?.lat ?? sLat / rows.length;
  const lon = named?.lon ?? sLon / rows.length;
  let radiusM = 0;
  for (const row of rows) {
    const d =
      milesBetween(lat, lon, snapshot.lat[row] as number, snapshot.lon[row] as number) * METRES_PER_MILE;
    if (d > radiusM) radiusM = d;
  }
  const days = rows.map((row) => snapshot.day[row] as number).sort((a, b) => a - b);
  const f = 1e7;
  return {
    count: rows.length,
    address:
      named?.address ?? snapshot.addresses.values[commonest(rows, (r) => snapshot.addr[r] as number)] ?? '',
    topType:
      named?.topType ?? snapshot.types.values[commonest(rows, (r) => snapshot.type[r] as number)] ?? '',
    lat: Math.round(lat * f) / f,
    lon: Math.round(lon * f) / f,
    radiusM: Math.round(radiusM * 10) / 10,
    first: dayString(days[0] as number),
    last: dayString(days[days.length - 1] as number),
    days: days.map(dayString),
    firstUtc: snapshot.utc[firstRow] as number,
    firstZone: zoneOfRow(snapshot, firstRow),
    lastUtc: snapshot.utc[lastRow] as number,
    lastZone: zoneOfRow(snapshot, lastRow),
    cdids: rows.map((row) => snapshot.cdid[row] as number),
  };
}
