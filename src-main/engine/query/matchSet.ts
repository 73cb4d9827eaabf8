/**
 * Filters → the set of matching rows: one pass over the snapshot's columns, cheapest tests first,
 * the area's bounding box before its exact test. The result (rows ascending, counts by type) is
 * what every query starts from; the service caches a few by filter and snapshot version.
 */
import { dayNumber, hourMask, type DayRange, type Filters } from '../../../src-shared/filters';
import type { Region } from '../../../src-shared/geo';
import { GONE, LIVE, REMOVED, type Snapshot } from './snapshot';

export type CompiledFilter = {
  /** ok[typeId] = 1 for kept types; null keeps every type. */
  types: Uint8Array | null;
  dayFrom: number;
  dayTo: number;
  hours: number;
  weekdays: number;
  text: Uint8Array | null;
  shape: Region | null;
  /** A reference layer's feature (maybe buffered): its box first, then its exact test. */
  feature: Region | null;
  includeRemoved: boolean;
};

export class MatchSet {
  /** Matching rows, ascending. */
  readonly rows: Uint32Array;
  /** Matches per type id (index = snapshot type id). */
  readonly byType: Uint32Array;
  private memberMask: Uint8Array | null = null;
  /** Per-purpose derived data (sort orders by distance, …), dropped with the set. */
  readonly memo = new Map<string, unknown>();

  constructor(
    readonly version: number,
    rows: Uint32Array,
    byType: Uint32Array,
    private readonly snapshotSize: number,
  ) {
    this.rows = rows;
    this.byType = byType;
  }

  get count(): number {
    return this.rows.length;
  }

  /** mask[row] = 1 for members. */
  get mask(): Uint8Array {
    if (!this.memberMask) {
      const mask = new Uint8Array(this.snapshotSize);
      const rows = this.rows;
      for (let j = 0; j < rows.length; j++) mask[rows[j] as number] = 1;
      this.memberMask = mask;
    }
    return this.memberMask;
  }
}

/** A type name as filters compare it: case folded, so "THEFT" matches the stored "Theft". */
export const foldType = (name: string): string => name.toLowerCase();

export function compileFilter(
  snapshot: Snapshot,
  filters: Filters,
  range: DayRange,
  extra: { text: Uint8Array | null; shape: Region | null; feature?: Region | null },
): CompiledFilter {
  let types: Uint8Array | null = null;
  if (filters.types && filters.types.length > 0) {
    const keep = new Uint8Array(Math.max(1, snapshot.types.size));
    // Type names match case-insensitively (the spec is silent; its own example is lower case):
    // "theft", "Theft" and "THEFT" are one type in every host.
    const wanted = new Set(filters.types.map(foldType));
    snapshot.types.values.forEach((name, id) => {
      if (wanted.has(foldType(name))) keep[id] = 1;
    });
    types = keep;
  }
  let weekdays = 0x7f;
  if (filters.weekdays && filters.weekdays.length > 0) {
    weekdays = 0;
    for (const w of filters.weekdays) weekdays |= 1 << w;
  }
  return {
    types,
    dayFrom: range.from ? dayNumber(range.from) : -2_147_483_648,
    dayTo: range.to ? dayNumber(range.to) : 2_147_483_647,
    hours: hourMask(filters.hours),
    weekdays,
    text: extra.text,
    shape: extra.shape,
    feature: extra.feature ?? null,
    includeRemoved: filters.includeRemoved === true,
  };
}

export function evaluate(snapshot: Snapshot, f: CompiledFilter): MatchSet {
  const n = snapshot.size;
  const { day, hour, weekday, type, state, lat, lon } = snapshot;
  const out = new Uint32Array(n);
  const byType = new Uint32Array(Math.max(1, snapshot.types.size));
  const maxState = f.includeRemoved ? REMOVED : LIVE;
  const { dayFrom, dayTo, hours, weekdays, text, shape } = f;
  const types = f.types;
  const box = shape?.box;
  const minLat = box?.minLat ?? -Infinity;
  const maxLat = box?.maxLat ?? Infinity;
  const minLon = box?.minLon ?? -Infinity;
  const maxLon = box?.maxLon ?? Infinity;
  const feature = f.feature;
  const fBox = feature?.box;
  const fMinLat = fBox?.minLat ?? -Infinity;
  const fMaxLat = fBox?.maxLat ?? Infinity;
  const fMinLon = fBox?.minLon ?? -Infinity;
  const fMaxLon = fBox?.maxLon ?? Infinity;
  let k = 0;
  for (let i = 0; i < n; i++) {
    const s = state[i] as number;
    if (s > maxState || s === GONE) continue;
    const d = day[i] as number;
    if (d < dayFrom || d > dayTo) continue;
    const t = type[i] as number;
    if (types !== null && types[t] !== 1) continue;
    if (((hours >>> (hour[i] as number)) & 1) === 0) continue;
    if (((weekdays >>> (weekday[i] as number)) & 1) === 0) continue;
    if (text !== null && text[i] !== 1) continue;
    if (shape) {
      const la = lat[i] as number;
      const lo = lon[i] as number;
      if (la < minLat || la > maxLat || lo < minLon || lo > maxLon || !shape.contains(la, lo)) continue;
    }
    if (feature) {
      const la = lat[i] as number;
      const lo = lon[i] as number;
      if (la < fMinLat || la > fMaxLat || lo < fMinLon || lo > fMaxLon || !feature.contains(la, lo)) continue;
    }
    out[k++] = i;
    byType[t] = (byType[t] as number) + 1;
  }
  return new MatchSet(snapshot.version, out.slice(0, k), byType, n);
}
