/**
 * What a pull accepts from the office database: every row is checked as the API's data is
 * (api/schemas.ts: ranges, types, the date's format) and as the shared area rules are
 * (src-shared/sync.ts), plus what a stored row derives from them (a real local day, an hour
 * 0–23, the weekday of that day, whole epoch milliseconds). PostgreSQL accepts values Blotter
 * never writes — `lat = 'NaN'` (which reaches the pull as the text "NaN"), hour 99, weekday 42,
 * lat 1e300 — and one such row must not stop replication: the pull skips it and names it
 * (replica.ts `office_skipped`, the office status), and takes every other row.
 */
import { z } from 'zod';
import { AreaName, AreaShape, RefreshMinutes } from '../../../src-shared/sync';
import { ApiIncident, DetailBody } from '../api/schemas';

/** Epoch milliseconds, whole, within what a Date can hold. */
const Ms = z.number().int().min(-8.64e15).max(8.64e15);
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL = /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d$/;

/** Days since 1970-01-01 of a real calendar day `YYYY-MM-DD`, or null. */
function dayNumber(day: string): number | null {
  const m = DAY.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(2000, mo - 1, d));
  date.setUTCFullYear(y);
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return Math.floor(date.getTime() / 86_400_000);
}

const RealDay = z.string().refine((d) => dayNumber(d) !== null, 'not a calendar day YYYY-MM-DD');

const OfficeIncident = z
  .object({
    // An import's namespaced ids are negative (import/normalize.ts); never 0.
    cdid: z
      .number()
      .int()
      .min(-Number.MAX_SAFE_INTEGER)
      .max(Number.MAX_SAFE_INTEGER)
      .refine((c) => c !== 0, 'cdid 0'),
    type: ApiIncident.shape.type,
    address: ApiIncident.shape.address,
    lat: ApiIncident.shape.lat,
    lon: ApiIncident.shape.lon,
    link: ApiIncident.shape.link,
    date_raw: z.string().max(100),
    occurred_local: z.string().regex(LOCAL, 'not a local time YYYY-MM-DDTHH:MM'),
    timezone: z.string().min(1).max(100),
    occurred_utc: Ms,
    time_flag: z.enum(['ambiguous', 'nonexistent']).nullable(),
    local_day: RealDay,
    local_hour: z.number().int().min(0).max(23),
    local_weekday: z.number().int().min(0).max(6),
    description: DetailBody.shape.description.nullable(),
    description_fetched_at: Ms.nullable(),
    first_seen: Ms,
    last_seen: Ms,
    removed_at: Ms.nullable(),
    removed_reason: z.string().max(10_000).nullable(),
    source: z.enum(['api', 'import']),
  })
  .superRefine((r, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    // The API's own rows: its id and its date, as the API's schema takes them.
    if (r.source === 'api') {
      if (!ApiIncident.shape.cdid.safeParse(r.cdid).success) issue('cdid', 'not an API incident id');
      if (!ApiIncident.shape.date.safeParse(r.date_raw).success)
        issue('date_raw', 'date is not in the MM/DD/YY HH:MM AM/PM format');
    }
    if (!r.occurred_local.startsWith(r.local_day)) issue('local_day', 'not the day of occurred_local');
    if (Number(r.occurred_local.slice(11, 13)) !== r.local_hour)
      issue('local_hour', 'not the hour of occurred_local');
    const n = dayNumber(r.local_day);
    if (n !== null && (((n + 4) % 7) + 7) % 7 !== r.local_weekday)
      issue('local_weekday', 'not the weekday of local_day');
  });

const Box = { min_lat: z.number(), min_lon: z.number(), max_lat: z.number(), max_lon: z.number() };
const PolygonPoints = z.array(AreaShape.options[1].shape.points.element).min(3);

const OfficeArea = z
  .object({
    id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    name: AreaName,
    kind: z.enum(['circle', 'polygon']),
    center_lat: AreaShape.options[0].shape.lat,
    center_lon: AreaShape.options[0].shape.lon,
    radius_mi: z.number().nullable(),
    polygon: z.string().nullable(),
    ...Box,
    refresh_minutes: RefreshMinutes,
    paused: z.union([z.literal(0), z.literal(1)]),
    created_at: Ms,
    last_synced_at: Ms.nullable(),
    backfilled_at: Ms.nullable(),
    deep_refreshed_at: Ms.nullable(),
  })
  .superRefine((a, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (a.kind === 'circle') {
      const shape = AreaShape.safeParse({
        kind: 'circle',
        lat: a.center_lat,
        lon: a.center_lon,
        radiusMi: a.radius_mi,
      });
      if (!shape.success) issue('radius_mi', shape.error.issues[0]?.message ?? 'not a circle');
    } else {
      let points: unknown;
      try {
        points = JSON.parse(a.polygon ?? 'null');
      } catch {
        points = null;
      }
      if (!PolygonPoints.safeParse(points).success)
        issue('polygon', 'not a ring of at least 3 [lat, lon] points');
    }
    const inRange =
      Math.abs(a.min_lat) <= 90 &&
      Math.abs(a.max_lat) <= 90 &&
      Math.abs(a.min_lon) <= 180 &&
      Math.abs(a.max_lon) <= 180;
    if (!inRange || a.min_lat > a.max_lat || a.min_lon > a.max_lon) issue('min_lat', 'not a box of the area');
  });

const OfficeCoverage = z.object({
  area_id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  tile: z.string().min(1).max(200),
  day: RealDay,
  status: z.enum(['complete', 'saturated', 'provisional']),
  checked_at: Ms,
});

const IncidentKey = z.coerce.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
const CoverageKey = z.tuple([z.number().int(), z.string(), z.string()]);

export type PulledTable = 'areas' | 'coverage' | 'incidents' | 'deletions';

/** A row's key as its table names it (and as the office status shows a skipped row). */
export function keyOf(table: PulledTable, r: Record<string, unknown>): string {
  if (table === 'incidents') return String(r.cdid);
  if (table === 'areas') return String(r.id);
  if (table === 'coverage') return JSON.stringify([r.area_id, r.tile, r.day]);
  return `${String(r.tbl)}:${String(r.key)}`;
}

function describe(error: z.ZodError, row: Record<string, unknown>): string {
  const first = error.issues[0]!;
  const field = first.path.map(String).join('.');
  if (!field) return first.message;
  const value = JSON.stringify(row[field as string] ?? null) ?? 'undefined';
  return `${field} = ${value.length > 40 ? `${value.slice(0, 40)}…` : value}: ${first.message}`;
}

/*
 * The fast path. A pull takes a million rows at 50k+ a second, and a zod parse of each would cost
 * a third of that. So a row whose every value lies strictly inside the bounds read from the very
 * schemas above (api/schemas.ts's, by introspection: no second copy of the numbers) is taken at
 * once; any other row — at a bound, or outside it — is judged by the schema itself, whose answer
 * (and message) decides. The fast path may only ever accept less than the schema does.
 */
const API = ApiIncident.shape;
const inside = (s: { minValue: number | null; maxValue: number | null }, v: unknown): boolean =>
  typeof v === 'number' && v > (s.minValue ?? -Infinity) && v < (s.maxValue ?? Infinity);
const whole = (s: { minValue: number | null; maxValue: number | null }, v: unknown): boolean =>
  inside(s, v) && Number.isInteger(v);
const fits = (s: { minLength: number | null; maxLength: number | null }, v: unknown, trim = false): boolean =>
  typeof v === 'string' &&
  v.length <= (s.maxLength ?? Infinity) &&
  (trim ? v.trim() : v).length >= (s.minLength ?? 0);
const maybe = (v: unknown, ok: (v: unknown) => boolean): boolean => v === null || ok(v);
const MS_BOUND = { minValue: -8.64e15, maxValue: 8.64e15 };
const CDID_BOUND = { minValue: -Number.MAX_SAFE_INTEGER - 1, maxValue: Number.MAX_SAFE_INTEGER + 1 };
const ms = (v: unknown) => whole(MS_BOUND, v);

/** The API's date format, by its own schema, remembered per distinct text (rows share minutes). */
const dateOk = new Map<string, boolean>();
function apiDate(v: string): boolean {
  let ok = dateOk.get(v);
  if (ok === undefined) {
    ok = API.date.safeParse(v).success;
    if (dateOk.size >= 100_000) dateOk.clear();
    dateOk.set(v, ok);
  }
  return ok;
}
const dayOk = new Map<string, number | null>();
function dayOf(v: string): number | null {
  let n = dayOk.get(v);
  if (n === undefined) {
    n = dayNumber(v);
    if (dayOk.size >= 100_000) dayOk.clear();
    dayOk.set(v, n);
  }
  return n;
}

function incidentSurelyFine(r: Record<string, unknown>): boolean {
  const api = r.source === 'api';
  if (!(api ? whole(API.cdid, r.cdid) : whole(CDID_BOUND, r.cdid) && r.cdid !== 0)) return false;
  if (!api && r.source !== 'import') return false;
  if (!fits(API.type, r.type, true) || !fits(API.address, r.address) || !fits(API.link, r.link)) return false;
  if (!inside(API.lat, r.lat) || !inside(API.lon, r.lon)) return false;
  if (typeof r.date_raw !== 'string' || r.date_raw.length > 100 || (api && !apiDate(r.date_raw)))
    return false;
  const local = r.occurred_local;
  const day = r.local_day;
  if (typeof local !== 'string' || !LOCAL.test(local) || typeof day !== 'string' || !local.startsWith(day))
    return false;
  const n = dayOf(day);
  if (n === null || r.local_weekday !== (((n + 4) % 7) + 7) % 7) return false;
  if (r.local_hour !== Number(local.slice(11, 13))) return false;
  if (typeof r.timezone !== 'string' || r.timezone.length < 1 || r.timezone.length > 100) return false;
  if (r.time_flag !== null && r.time_flag !== 'ambiguous' && r.time_flag !== 'nonexistent') return false;
  if (!ms(r.occurred_utc) || !ms(r.first_seen) || !ms(r.last_seen)) return false;
  if (!maybe(r.removed_at, ms) || !maybe(r.description_fetched_at, ms)) return false;
  if (!maybe(r.description, (v) => fits(DetailBody.shape.description, v))) return false;
  return maybe(r.removed_reason, (v) => typeof v === 'string' && v.length <= 10_000);
}

/** Why a pulled row cannot be taken, or null when it can. */
export function problemOf(table: PulledTable, r: Record<string, unknown>): string | null {
  if (table === 'incidents' && incidentSurelyFine(r)) return null;
  const schema =
    table === 'incidents'
      ? OfficeIncident
      : table === 'areas'
        ? OfficeArea
        : table === 'coverage'
          ? OfficeCoverage
          : null;
  if (schema) {
    const out = schema.safeParse(r);
    return out.success ? null : describe(out.error, r);
  }
  // A deletion: a key its table could hold.
  if (r.tbl === 'incidents' || r.tbl === 'areas')
    return IncidentKey.safeParse(r.key).success ? null : `key = ${JSON.stringify(r.key)}: not a row id`;
  if (r.tbl === 'coverage') {
    let key: unknown;
    try {
      key = JSON.parse(String(r.key));
    } catch {
      key = null;
    }
    return CoverageKey.safeParse(key).success
      ? null
      : `key = ${JSON.stringify(r.key)}: not a coverage day's key`;
  }
  return null; // a table the replica does not keep: nothing to apply
}
