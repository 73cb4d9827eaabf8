/**
 * Repeat locations: places with two or more incidents, either at exactly the same point or as
 * connected groups by distance (two incidents closer than the distance are in one group, and so
 * on transitively: union–find over the close pairs). Dates are the incidents' local days.
 */
import { dayString } from '../../../src-shared/filters';
import { AnalysisTooLarge, count, length, MAX_CLOSE_PAIRS, niceDown } from './bounds';
import { closePairs, countClosePairs, largestDistanceWithin } from './pairs';
import { project, requireEnough } from './points';

export type RepeatGroup = {
  /** Indices into the columns given (map them to snapshot rows for a drill-down). */
  members: number[];
  count: number;
  /** Mean position of the group. */
  lat: number;
  lon: number;
  /** Local days, 'YYYY-MM-DD'. */
  first: string;
  last: string;
  days: string[];
};

function groupOf(members: number[], lat: Float64Array, lon: Float64Array, day: Int32Array): RepeatGroup {
  let sLat = 0;
  let sLon = 0;
  const days: number[] = [];
  for (const m of members) {
    sLat += lat[m] as number;
    sLon += lon[m] as number;
    days.push(day[m] as number);
  }
  days.sort((a, b) => a - b);
  const f = 1e7;
  return {
    members,
    count: members.length,
    lat: Math.round((sLat / members.length) * f) / f,
    lon: Math.round((sLon / members.length) * f) / f,
    first: dayString(days[0] as number),
    last: dayString(days[days.length - 1] as number),
    days: days.map(dayString),
  };
}

const byCount = (a: RepeatGroup, b: RepeatGroup) => b.count - a.count || a.first.localeCompare(b.first);

export type RepeatLocations = {
  groups: RepeatGroup[];
  parameters: {
    method: 'exact point' | 'connected within distance';
    distance_m: number;
    incidents: number;
    utm_epsg: number | null;
  };
};

/**
 * Repeat locations by exact point (`distanceM` 0) or by distance (strictly closer than
 * `distanceM` metres, connected groups); refuses below MIN_INCIDENTS.
 */
export function repeatLocations(
  lat: Float64Array,
  lon: Float64Array,
  day: Int32Array,
  distanceM: number,
): RepeatLocations {
  requireEnough(lat.length, 'Repeat locations');
  if (!(distanceM > 0))
    return {
      groups: exactRepeats(lat, lon, day),
      parameters: { method: 'exact point', distance_m: 0, incidents: lat.length, utm_epsg: null },
    };
  const projected = project(lat, lon);
  return {
    groups: groupsWithin(lat, lon, day, projected.x, projected.y, distanceM),
    parameters: {
      method: 'connected within distance',
      distance_m: distanceM,
      incidents: lat.length,
      utm_epsg: projected.utm.epsg,
    },
  };
}

/** Groups of two or more incidents at exactly the same lat/lon, largest first. */
export function exactRepeats(lat: Float64Array, lon: Float64Array, day: Int32Array): RepeatGroup[] {
  const at = new Map<string, number[]>();
  for (let i = 0; i < lat.length; i++) {
    const key = `${lat[i]},${lon[i]}`;
    const list = at.get(key);
    if (list) list.push(i);
    else at.set(key, [i]);
  }
  return [...at.values()]
    .filter((m) => m.length >= 2)
    .map((m) => groupOf(m, lat, lon, day))
    .sort(byCount);
}

/** Connected groups of incidents closer than `distanceM` metres to another of the group, largest first. */
export function repeatsWithin(
  lat: Float64Array,
  lon: Float64Array,
  day: Int32Array,
  distanceM: number,
): RepeatGroup[] {
  if (!(distanceM > 0)) return exactRepeats(lat, lon, day);
  const { x, y } = project(lat, lon);
  return groupsWithin(lat, lon, day, x, y, distanceM);
}

function groupsWithin(
  lat: Float64Array,
  lon: Float64Array,
  day: Int32Array,
  x: Float64Array,
  y: Float64Array,
  distanceM: number,
): RepeatGroup[] {
  // Counted before they are kept: past MAX_CLOSE_PAIRS the grouping is refused before any is built.
  const counted = countClosePairs(x, y, distanceM, MAX_CLOSE_PAIRS, true);
  if (counted.count > MAX_CLOSE_PAIRS) {
    const fitM = largestDistanceWithin(x, y, distanceM, MAX_CLOSE_PAIRS, true);
    const fit = fitM > 0 ? niceDown(fitM * (1 - 1e-9)) : 0;
    throw new AnalysisTooLarge(
      `Repeat locations cannot group within ${length(distanceM)} m here: these ${count(x.length)} incidents make more than ${count(MAX_CLOSE_PAIRS)} pairs closer than that, the most close pairs it takes. ` +
        (fit > 0 ? `The largest distance that fits is ${length(fit)} m.` : 'Use 0 m (the same point).'),
    );
  }
  const pairs = closePairs(x, y, distanceM, true, counted.count);
  const parent = new Int32Array(lat.length);
  for (let i = 0; i < parent.length; i++) parent[i] = i;
  const find = (a: number): number => {
    let r = a;
    while (parent[r] !== r) r = parent[r] as number;
    while (parent[a] !== r) {
      const next = parent[a] as number;
      parent[a] = r;
      a = next;
    }
    return r;
  };
  for (let k = 0; k < pairs.size; k++) {
    const a = find(pairs.i[k] as number);
    const b = find(pairs.j[k] as number);
    if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
  }
  const groups = new Map<number, number[]>();
  for (let i = 0; i < parent.length; i++) {
    const r = find(i);
    const list = groups.get(r);
    if (list) list.push(i);
    else groups.set(r, [i]);
  }
  return [...groups.values()]
    .filter((m) => m.length >= 2)
    .map((m) => groupOf(m, lat, lon, day))
    .sort(byCount);
}
