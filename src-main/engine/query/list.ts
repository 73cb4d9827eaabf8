/**
 * The table: a page of the filtered incidents in the chosen order. The filter's rows are sorted
 * once per order with radix sorts (date; type or address, newest first inside; distance from the
 * centre in 1/1,000 mile) and memoized on its MatchSet, so every further page is a slice.
 */
import { dayString, type GeoPoint } from '../../../src-shared/filters';
import type { IncidentRow, ListResult, SortKey } from '../../../src-shared/incidentQueries';
import { EngineError } from '../errors';
import { EARTH_RADIUS_MI, milesBetween, RAD } from '../../../src-shared/geo';
import type { MatchSet } from './matchSet';
import type { QueryService, Resolved } from './service';
import { REMOVED, type Snapshot } from './snapshot';
import { byDate, grouped, pick, radixArgsort } from './sortOrders';

export type ListRequest = {
  sort: { by: SortKey; dir: 'asc' | 'desc'; center?: GeoPoint | undefined };
  offset: number;
  limit: number;
};

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

export function rowOf(s: Snapshot, row: number, center: GeoPoint | null): IncidentRow {
  const minute = s.minute[row] as number;
  const lat = s.lat[row] as number;
  const lon = s.lon[row] as number;
  return {
    cdid: s.cdid[row] as number,
    type: s.types.values[s.type[row] as number] as string,
    address: s.addresses.values[s.addr[row] as number] as string,
    lat,
    lon,
    occurredLocal: `${dayString(s.day[row] as number)}T${pad2(Math.floor(minute / 60))}:${pad2(minute % 60)}`,
    timezone: s.zones.values[s.zone[row] as number] as string,
    occurredUtc: s.utc[row] as number,
    removed: s.state[row] === REMOVED,
    distanceMi: center ? Math.round(milesBetween(center.lat, center.lon, lat, lon) * 1000) / 1000 : null,
  };
}

/** sin x: a Taylor polynomial for the small angles of city distances (error < 1e-11), else Math.sin. */
const sinSmall = (x: number): number => {
  if (x > 0.2 || x < -0.2) return Math.sin(x);
  const x2 = x * x;
  return x * (1 - (x2 / 6) * (1 - (x2 / 20) * (1 - x2 / 42)));
};

/**
 * Sort keys monotonic in great-circle distance from the centre: √(haversine term), in units of
 * about 1/1,000 mile, with the trigonometry of small angles done by polynomials.
 */
export function distanceKeys(s: Snapshot, rows: Uint32Array, center: GeoPoint): Uint32Array {
  const keys = new Uint32Array(rows.length);
  const { lat, lon } = s;
  const cLat = center.lat;
  const cLon = center.lon;
  const cosC = Math.cos(cLat * RAD);
  const sinC = Math.sin(cLat * RAD);
  const half = RAD / 2;
  // 1/1,000 mile (5 ft) units: a continent's distances fit 22 bits, two radix passes.
  const scale = 2 * EARTH_RADIUS_MI * 1_000;
  for (let j = 0; j < rows.length; j++) {
    const row = rows[j] as number;
    const s1 = sinSmall(((lat[row] as number) - cLat) * half);
    const s2 = sinSmall(((lon[row] as number) - cLon) * half);
    // cos(lat) = cos(c + d) = cos c · (1 − 2 s1²) − sin c · 2 s1 √(1 − s1²), d = lat − c
    const s1s1 = s1 * s1;
    const cosLat = cosC * (1 - 2 * s1s1) - sinC * 2 * s1 * Math.sqrt(1 - s1s1);
    const a = s1s1 + cosC * cosLat * s2 * s2;
    keys[j] = (Math.sqrt(a < 1 ? a : 1) * scale + 0.5) | 0; // < 2^24 on Earth: |0 is a safe round
  }
  return keys;
}

/** The filter's rows nearest first from `center` (stable: ties keep cdid order). */
export function distanceOrder(s: Snapshot, set: MatchSet, center: GeoPoint): Uint32Array {
  const memoKey = `distance:${center.lat},${center.lon}`;
  const memo = set.memo.get(memoKey) as Uint32Array | undefined;
  if (memo) return memo;
  const order = radixArgsort(set.rows, distanceKeys(s, set.rows, center));
  set.memo.set(memoKey, order);
  return order;
}

/** The filter's rows in table order (memoized on the set: paging is a slice). */
export async function sortedRows(
  service: QueryService,
  resolved: Resolved,
  by: Exclude<SortKey, 'distance'>,
  desc: boolean,
): Promise<Uint32Array> {
  const { snapshot, set } = resolved;
  const memoKey = by === 'date' ? 'date' : `${by}:${desc ? 'desc' : 'asc'}`;
  const memo = set.memo.get(memoKey) as Uint32Array | undefined;
  if (memo) return memo;
  let dateAsc = set.memo.get('date') as Uint32Array | undefined;
  if (!dateAsc) {
    // A large share of the archive: walk the archive's date order (kept per snapshot version)
    // instead of sorting; a small one: sort its rows.
    dateAsc =
      set.count > snapshot.size / 4 && set.version === snapshot.version
        ? pick(service.allByDate(snapshot), set.mask, set.count)
        : byDate(snapshot, set.rows);
    set.memo.set('date', dateAsc);
  }
  if (by === 'date') return dateAsc;
  const rank = await service.ranks(snapshot, by);
  const order = grouped(dateAsc, rank, by === 'type' ? snapshot.type : snapshot.addr, desc);
  set.memo.set(memoKey, order);
  return order;
}

export async function listIncidents(
  service: QueryService,
  resolved: Resolved,
  req: ListRequest,
): Promise<ListResult> {
  const { snapshot, set, shape } = resolved;
  const center = req.sort.center ?? shape?.center ?? null;
  const desc = req.sort.dir === 'desc';
  let order: Uint32Array;
  // Date and distance orders are read backwards for descending; grouped orders are built per direction.
  let reverse = desc;
  if (req.sort.by === 'distance') {
    if (!center) {
      throw new EngineError(
        'bad_input',
        'Sorting by distance needs an area in the filter or a point to measure from.',
      );
    }
    order = distanceOrder(snapshot, set, center);
  } else {
    order = await sortedRows(service, resolved, req.sort.by, desc);
    if (req.sort.by !== 'date') reverse = false;
  }
  const rows: IncidentRow[] = [];
  const end = Math.min(order.length, req.offset + req.limit);
  for (let k = req.offset; k < end; k++) {
    rows.push(rowOf(snapshot, order[reverse ? order.length - 1 - k : k] as number, center));
  }
  withSubtypes(service, rows);
  return { total: set.count, offset: req.offset, rows, center };
}

/**
 * The page's subtypes (an imported file's own category, store migration 017), read from the store
 * for the page's cdids: the snapshot keeps no text per row beyond its dictionaries, and a page is
 * a few hundred rows.
 */
function withSubtypes(service: QueryService, rows: IncidentRow[]): void {
  if (rows.length === 0) return;
  const found = service.db
    .prepare(
      'SELECT cdid, subtype FROM incidents WHERE cdid IN (SELECT value FROM json_each(?)) AND subtype IS NOT NULL',
    )
    .raw()
    .all(JSON.stringify(rows.map((r) => r.cdid))) as [number, string][];
  if (found.length === 0) return;
  const by = new Map(found);
  for (const r of rows) r.subtype = by.get(r.cdid) ?? null;
}
