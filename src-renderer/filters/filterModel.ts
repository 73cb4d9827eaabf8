/**
 * The filter bar's controls as patches of the shared Filters (src-shared/filters.ts): types,
 * date presets and a custom range, time of day, weekdays, removed incidents. "All" is always the
 * absence of a key, so a cleared control leaves no trace. Pure.
 */
import { dayNumber, type AreaFilter, type DatePreset, type Filters } from '../../src-shared/filters';
import type { AreaShape } from '../../src-shared/sync';

export const DEFAULT_FILTERS: Filters = { preset: '90d' };

export const PRESETS: { id: DatePreset; label: string }[] = [
  { id: '7d', label: '7 days' },
  { id: '30d', label: '30 days' },
  { id: '90d', label: '90 days' },
  { id: 'all', label: 'All history' },
];

/** A type picked or unpicked; none picked means every type. */
export function toggleType(filters: Filters, type: string): Partial<Filters> {
  const current = filters.types ?? [];
  const next = current.includes(type) ? current.filter((t) => t !== type) : [...current, type];
  return { types: next.length > 0 ? next : undefined };
}

export function onlyType(type: string): Partial<Filters> {
  return { types: [type] };
}

export function presetPatch(preset: DatePreset): Partial<Filters> {
  return { preset, from: undefined, to: undefined };
}

/** A custom range replaces the preset (a preset would win over it). Empty ends are open. */
export function rangePatch(from: string, to: string): Partial<Filters> {
  const valid = (day: string) => (day && !Number.isNaN(dayNumber(day)) ? day : undefined);
  let start = valid(from);
  let end = valid(to);
  if (start && end && start > end) [start, end] = [end, start];
  return { preset: undefined, from: start, to: end };
}

/** Whether `rangePatch(from, to)` swaps the ends (both valid, "to" before "from"): the bar says so. */
export function rangeSwapped(from: string, to: string): boolean {
  const patch = rangePatch(from, to);
  return patch.from !== undefined && patch.to !== undefined && patch.from !== from;
}

/** Start and end hour (end exclusive, may wrap past midnight); a null start means any time. */
export function hoursPatch(start: number | null, end: number | null): Partial<Filters> {
  if (start === null) return { hours: undefined };
  const stop = end ?? 24;
  if (stop % 24 === start) return { hours: undefined };
  return { hours: [start, stop] };
}

export function toggleWeekday(filters: Filters, day: number): Partial<Filters> {
  const current = filters.weekdays ?? [];
  const next = current.includes(day) ? current.filter((d) => d !== day) : [...current, day].sort();
  return { weekdays: next.length > 0 && next.length < 7 ? next : undefined };
}

export function textPatch(text: string): Partial<Filters> {
  const trimmed = text.trim().slice(0, 300);
  return { text: trimmed ? trimmed : undefined };
}

export const hourLabel = (h: number): string => `${String(h % 24).padStart(2, '0')}:00`;

/** "22:00–06:00, overnight", or null for the whole day. */
export function hoursText(hours: Filters['hours']): string | null {
  if (!hours) return null;
  const [start, end] = hours;
  if (start === end % 24) return null;
  const text = `${hourLabel(start)}–${hourLabel(end)}`;
  return end < start ? `${text}, overnight` : text;
}

/** Everything but the type chips: the query whose per-type counts label the chips. */
export function withoutTypes(filters: Filters): Filters {
  const rest: Filters = { ...filters };
  delete rest.types;
  return rest;
}

/** The total of the chosen types, from counts made without the type filter. */
export function totalOf(byType: Record<string, number>, types: readonly string[] | undefined): number {
  const chosen = types && types.length > 0 ? types : Object.keys(byType);
  return chosen.reduce((sum, type) => sum + (byType[type] ?? 0), 0);
}

/** Whether the filters are the defaults (nothing to clear). */
export function isDefault(filters: Filters): boolean {
  const keys = Object.keys(filters).filter((k) => filters[k as keyof Filters] !== undefined);
  return keys.length === 1 && filters.preset === DEFAULT_FILTERS.preset;
}

/** A shape drawn on a map (an AreaShape, as the drawing tools give it) as the filter's area. */
export function areaFilterOf(shape: AreaShape): AreaFilter {
  return shape.kind === 'circle'
    ? { circle: { lat: shape.lat, lon: shape.lon, radiusMi: shape.radiusMi } }
    : { polygon: shape.points };
}
