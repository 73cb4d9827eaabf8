/**
 * The one rule for repeat locations (issue 26, item 5: History and Analysis listed different
 * places in different words). A place is a block address as the API gives it, with MIN_REPEAT or
 * more of the filter's incidents; places rank by their count, ties by the address seen first (the
 * lower address id). History's top locations (aggregates.ts) and the Analysis view's repeat
 * locations (analysis/service.ts) both list these, with the same position (the mean of the
 * incidents), leading type and first and latest incident (each with its zone, for local time).
 */
import type { Snapshot } from './snapshot';

/** A repeat location has at least this many incidents; an address seen once is not a pattern. */
export const MIN_REPEAT = 2;

export type RepeatPlace = {
  address: string;
  count: number;
  /** Mean position of the address's incidents. */
  lat: number;
  lon: number;
  /** The most common type (ties: the type seen first). */
  topType: string;
  /** Snapshot rows of the first and the latest incident (by occurred time). */
  firstRow: number;
  lastRow: number;
  /** The place's snapshot rows, in the filter's order (only when asked for: `members`). */
  rows: number[];
};

/**
 * The `limit` busiest repeat places among `rows` (snapshot rows), and how many repeat places
 * there are in all. `members`: also list each place's rows (for a drill-down by incident).
 */
export function repeatPlaces(
  snapshot: Snapshot,
  rows: Uint32Array,
  limit: number,
  members = false,
): RepeatPlaces {
  const steps = repeatPlacesInSteps(snapshot, rows, limit, members);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

export type RepeatPlaces = { places: RepeatPlace[]; total: number };

/** Rows between the steps of repeatPlacesInSteps (a few ms at most). */
const ROWS_PER_STEP = 32_768;

/**
 * repeatPlaces as steps (issue 31): it pauses (yields) every ROWS_PER_STEP rows, so a caller on
 * the engine thread can let its event loop turn between them (analysis/slices.ts `drainSliced`);
 * the result is the one repeatPlaces gives.
 */
export function* repeatPlacesInSteps(
  snapshot: Snapshot,
  rows: Uint32Array,
  limit: number,
  members = false,
): Generator<void, RepeatPlaces, void> {
  const a = snapshot.addresses.size;
  const counts = new Uint32Array(a);
  for (let j = 0; j < rows.length; j++) {
    const id = snapshot.addr[rows[j] as number] as number;
    counts[id] = (counts[id] as number) + 1;
    if (j % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
  }
  yield;
  // The best `limit` in a small sorted list; most addresses fail the first comparison.
  const top: number[] = [];
  let floor = 0;
  let total = 0;
  for (let id = 0; id < a; id++) {
    const c = counts[id] as number;
    if (c < MIN_REPEAT) continue;
    total++;
    if (top.length === limit && c <= floor) continue;
    let at = top.length;
    while (at > 0 && c > (counts[top[at - 1] as number] as number)) at--;
    top.splice(at, 0, id);
    if (top.length > limit) top.pop();
    floor = counts[top[top.length - 1] as number] as number;
    if (id % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
  }
  yield;
  // A second pass over the rows of the top addresses: position, first and latest, leading type.
  const slot = new Int32Array(a).fill(-1);
  top.forEach((id, k) => (slot[id] = k));
  const types = snapshot.types.size;
  const typeCounts = new Uint32Array(top.length * types);
  const sumLat = new Float64Array(top.length);
  const sumLon = new Float64Array(top.length);
  const first = new Float64Array(top.length).fill(Infinity);
  const last = new Float64Array(top.length).fill(-Infinity);
  const firstRow = new Int32Array(top.length).fill(-1);
  const lastRow = new Int32Array(top.length).fill(-1);
  const lists: number[][] = top.map(() => []);
  for (let j = 0; j < rows.length; j++) {
    const row = rows[j] as number;
    const k = slot[snapshot.addr[row] as number] as number;
    if (k < 0) continue;
    const cell = k * types + (snapshot.type[row] as number);
    typeCounts[cell] = (typeCounts[cell] as number) + 1;
    sumLat[k] = (sumLat[k] as number) + (snapshot.lat[row] as number);
    sumLon[k] = (sumLon[k] as number) + (snapshot.lon[row] as number);
    const utc = snapshot.utc[row] as number;
    if (utc > (last[k] as number)) {
      last[k] = utc;
      lastRow[k] = row;
    }
    if (utc < (first[k] as number)) {
      first[k] = utc;
      firstRow[k] = row;
    }
    if (members) lists[k]?.push(row);
    if (j % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
  }
  yield;
  const places = top.map((id, k): RepeatPlace => {
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
      firstRow: firstRow[k] as number,
      lastRow: lastRow[k] as number,
      rows: lists[k] as number[],
    };
  });
  return { places, total };
}

/** The IANA zone of a snapshot row ('UTC' when unknown). */
export const zoneOfRow = (snapshot: Snapshot, row: number): string =>
  snapshot.zones.values[snapshot.zone[row] as number] ?? 'UTC';
