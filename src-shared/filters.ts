/**
 * The one filter state every view shares (Map, Table, History), and the local-day arithmetic the
 * engine and the renderer both use to read it. Pure TypeScript: no Node, no DOM.
 *
 * Semantics, the same everywhere:
 * - `types`: type names, matched case-insensitively ("theft" = "Theft"); empty or absent means every
 *   type (unknown API types included).
 * - `preset` wins over `from`/`to`; '7d' is today and the 6 days before it, in the engine's local
 *   calendar; 'all' means no date bound. `from`/`to` are local days of the incident, inclusive.
 * - `hours`: [start, end) in local hours; end ≤ start wraps past midnight ([22, 6] is 22:00–05:59),
 *   [h, h] is the whole day, [0, 24] too.
 * - `weekdays`: 0 = Sunday … 6 = Saturday, local; empty or absent means every day.
 * - `text`: words over address and description, all required; the last word matches as a prefix
 *   (search as you type), others as whole words unless typed with a star ("wash* st");
 *   "double quotes" for an exact phrase. Never passed to SQLite as typed: the engine rebuilds a
 *   safe full-text query from the words.
 * - `area`: a saved area, or a drawn circle (miles, great-circle) or polygon ([lat, lon] vertices).
 * - `feature`: inside one feature of a reference layer (a beat, a district), or within `bufferM`
 *   metres of it (a school's point, a park's edge; measured in its UTM zone). Applies with `area`.
 * - `focus`: also inside this shape, on top of `area` and the rest (an analysis's cell or place
 *   opened from Analysis); its `label` names it for the filter chip ("Gi* cell 24,25").
 * - removed incidents are left out unless `includeRemoved`.
 */
import { z } from 'zod';

export { CRIME_TYPES, type CrimeType } from './crimeTypes';

// ---------------------------------------------------------------------------------------------
// Local days: 'YYYY-MM-DD' ↔ a day number (days since 1970-01-01). Calendar arithmetic only.

const DAY_MS = 86_400_000;
const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day number of 'YYYY-MM-DD', or NaN when it is not a real calendar day. */
export function dayNumber(day: string): number {
  const m = DAY_RE.exec(day);
  if (!m) return Number.NaN;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d)
    return Number.NaN;
  return ms / DAY_MS;
}

/** 'YYYY-MM-DD' of a day number. */
export function dayString(dayNum: number): string {
  return new Date(dayNum * DAY_MS).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export function weekdayOf(dayNum: number): number {
  return (((dayNum + 4) % 7) + 7) % 7;
}

/** The same calendar day a year earlier (29 February becomes 28 February). */
export function sameDayLastYear(dayNum: number): number {
  const d = new Date(dayNum * DAY_MS);
  const y = d.getUTCFullYear() - 1;
  const m = d.getUTCMonth();
  const lastOfMonth = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return Date.UTC(y, m, Math.min(d.getUTCDate(), lastOfMonth)) / DAY_MS;
}

export const LocalDay = z
  .string()
  .refine((s) => !Number.isNaN(dayNumber(s)), 'Use a real date written YYYY-MM-DD.');

// ---------------------------------------------------------------------------------------------
// The filter state.

export const DatePreset = z.enum(['7d', '30d', '90d', 'all']);
export type DatePreset = z.infer<typeof DatePreset>;
export const PRESET_DAYS: Record<Exclude<DatePreset, 'all'>, number> = { '7d': 7, '30d': 30, '90d': 90 };

const Lat = z.number().min(-90).max(90);
const Lon = z.number().min(-180).max(180);
export const LatLon = z.tuple([Lat, Lon]);
export const GeoPoint = z.object({ lat: Lat, lon: Lon }).strict();
export type GeoPoint = z.infer<typeof GeoPoint>;

export const CircleShape = z
  .object({ lat: Lat, lon: Lon, radiusMi: z.number().positive().max(1000) })
  .strict();
export type CircleShape = z.infer<typeof CircleShape>;

export const AreaFilter = z.union([
  z.object({ areaId: z.number().int().positive() }).strict(),
  z.object({ circle: CircleShape }).strict(),
  z.object({ polygon: z.array(LatLon).min(3, 'A polygon needs at least 3 corners.').max(2000) }).strict(),
]);
export type AreaFilter = z.infer<typeof AreaFilter>;

/** Inside a reference layer's feature, or within `bufferM` metres of it (`unit`: how the user gave it). */
export const FeatureFilter = z
  .object({
    layerId: z.number().int().positive(),
    featureId: z.number().int().positive(),
    bufferM: z.number().min(0).max(50_000).optional(),
    unit: z.enum(['m', 'ft']).optional(),
  })
  .strict();
export type FeatureFilter = z.infer<typeof FeatureFilter>;

/** A narrowing shape with its name: the incidents must be inside it as well as inside `area`. */
const FocusLabel = z.string().min(1).max(120);
export const FocusFilter = z.union([
  z.object({ label: FocusLabel, polygon: z.array(LatLon).min(3).max(2000) }).strict(),
  z.object({ label: FocusLabel, circle: CircleShape }).strict(),
  /** A repeat location's incidents (its place by block address). */
  z.object({ label: FocusLabel, cdids: z.array(z.number().int().positive()).min(1).max(10_000) }).strict(),
]);
export type FocusFilter = z.infer<typeof FocusFilter>;

const Hour = z.number().int().min(0).max(24);

export const Filters = z
  .object({
    types: z.array(z.string().min(1).max(100)).max(500).optional(),
    from: LocalDay.optional(),
    to: LocalDay.optional(),
    preset: DatePreset.optional(),
    hours: z.tuple([Hour.max(23), Hour]).optional(),
    weekdays: z.array(z.number().int().min(0).max(6)).max(7).optional(),
    text: z.string().max(300).optional(),
    area: AreaFilter.optional(),
    feature: FeatureFilter.optional(),
    /** Also inside this (an analysis cell or place); `area` still applies. */
    focus: FocusFilter.optional(),
    includeRemoved: z.boolean().optional(),
    /** Only these incidents (an alert's, opened on the map); the other filters still apply. */
    cdids: z.array(z.number().int().positive()).max(10_000).optional(),
  })
  .strict()
  .refine((f) => !f.from || !f.to || f.from <= f.to, {
    message: 'The start date is after the end date.',
    path: ['to'],
  });
export type Filters = z.infer<typeof Filters>;

/** A date range of local days, inclusive; null ends are open. */
export type DayRange = { from: string | null; to: string | null };

/** The filter's date range, with a preset resolved against `today` ('YYYY-MM-DD'). */
export function resolveDateRange(filters: Pick<Filters, 'preset' | 'from' | 'to'>, today: string): DayRange {
  if (filters.preset === 'all') return { from: null, to: null };
  if (filters.preset) {
    const end = dayNumber(today);
    return { from: dayString(end - PRESET_DAYS[filters.preset] + 1), to: today };
  }
  return { from: filters.from ?? null, to: filters.to ?? null };
}

/** The 24 local hours a filter keeps, as a bit mask (bit h = hour h). */
export function hourMask(hours: Filters['hours']): number {
  const all = 0xffffff;
  if (!hours) return all;
  const [start, end] = hours;
  if (start === end % 24 || (start === 0 && end === 24)) return all;
  let mask = 0;
  for (let h = start; h % 24 !== end % 24; h++) mask |= 1 << (h % 24);
  return mask;
}
