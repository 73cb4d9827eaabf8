/**
 * A first mapping for a file's columns, by name and by content: the names records systems and
 * dispatch exports use for id, offence, address, date, time and coordinates, then the sample
 * values (a column of dates, of numbers in a latitude's range, of State Plane–sized numbers). The
 * user changes what it got wrong in the preview.
 *
 * Where several columns fit, the choice follows how such files are laid out: an incident, case or
 * call number before a bare row id (`OBJECTID`), either only when its values are unique; the occurrence date before the reported one; the
 * time column paired with the chosen date (`Call Date` → `Call Time`, `DATE OCC` → `TIME OCC`);
 * X and Y as a pair spelled alike (`OpenDataX` / `OpenDataY`); latitude and longitude swapped when
 * the latitude column's values can only be longitudes (below −60°, where no incidents are); with
 * no coordinate columns, a column of points as text (`POINT (-87.63 41.88)`, `(41.88, -87.63)`).
 */
import type { ColumnMappingInput } from '../../../../src-shared/importMapping';
import { readClock, readDateTime } from './dates';
import { pointText, type PointText } from './pointText';
import { zonesForExtent } from './projection';

const NAMES: Record<string, RegExp> = {
  id: /^(cdid|id|(incident|inci|case|report|rpt|event|call|cad|dr|rd|complaint|cmplnt|record|master_incident|offen[cs]e|row)_?(number|num|nbr|no|id)|ccn|objectid|fid|oid)$/,
  type: /^(type|offen[cs]e(_?(code|type|description|desc|category|group))?|crime(_?(type|code|category|description|desc))?|primary_?type|ucr_?(code|desc)?|nibrs_?(code|desc|offense)?|incident_?(type|category|desc)|call_?type|nature(_?code)?|problem|category|charge|crm_cd_desc)$/,
  address:
    /^(address|block_?address|100_block_address|location|street|addr|block|incident_?address|incident_?location|location_?address|street_?address|full_?address|address_?block)$/,
  // Any column named with a date (its values must read as dates, and not be an update's).
  date: /(^|_)date|date(_?time)?$|^(timestamp|occurred(_?(on|at))?|reported_?on|when)$/,
  time: /(^|_)time$|^time(_|$)|^hour$/,
  lat: /^(lat|latitude|y_?lat|point_?y_?lat|lat_?wgs84|latitude_?wgs84)$/,
  lon: /^(lon|lng|long|longitude|x_?lon|lon_?wgs84|longitude_?wgs84)$/,
  x: /^(x|x_?coord(inate)?|easting|point_?x|xcoord|state_?plane_?x|x_?sp)$/,
  y: /^(y|y_?coord(inate)?|northing|point_?y|ycoord|state_?plane_?y|y_?sp)$/,
  description: /^(description|narrative|summary|details|notes|remarks|synopsis|comments)$/,
};

/** Columns that hold when a record was changed or loaded, not when the incident happened. */
const NOT_OCCURRENCE =
  /updat|modif|entered|created|load|extract|birth|dob|clear|clos|arriv|disp(atch)?_?time|datetime_?end|end_?date|to_?date/;
/** The occurrence, before the report: preferred among several date or time columns. */
const OCCURRENCE = /occ|offen[cs]e|start|from|incident|received|call/;
/** A bare row id: taken only when no incident, case or call number is there (or unique). */
const ROW_ID = /^(id|row_?id|objectid|fid|oid)$/;

const key = (c: string) =>
  c
    .trim()
    .toLowerCase()
    .replace(/[\s_\-./#]+/g, '_')
    .replace(/^_|_$/g, '');
const named = (columns: readonly string[], field: string): string[] =>
  columns.filter((c) => key(c) !== '' && (NAMES[field] as RegExp).test(key(c)));

const numbers = (rows: readonly Record<string, string>[], c: string): number[] =>
  rows.map((r) => Number(r[c])).filter((n) => Number.isFinite(n) && n !== 0);

/** Most of the column's filled cells pass `ok` (a stray bad cell is the preview's to name). */
function mostly(rows: readonly Record<string, string>[], c: string, ok: (v: string) => boolean): boolean {
  const filled = rows.map((r) => (r[c] ?? '').trim()).filter((v) => v !== '');
  return filled.length > 0 && filled.filter(ok).length >= filled.length * 0.8;
}

const readsAsDate = (v: string) => !('expected' in readDateTime(v, null));
const readsAsTime = (v: string) => readClock(v) !== null;

/** Another column whose name is `c`'s with `from` replaced by `to` (names compared as keys). */
function partner(columns: readonly string[], c: string, from: RegExp, to: string): string | undefined {
  const want = key(c).replace(from, to);
  return want === key(c) ? undefined : columns.find((o) => o !== c && key(o) === want);
}

/** The bundled zones whose area holds these X/Y (projection.ts). */
function fitting(xs: number[], ys: number[]): Proposal['zones'] {
  const found = zonesForExtent({
    minX: Math.min(...xs),
    minY: Math.min(...ys),
    maxX: Math.max(...xs),
    maxY: Math.max(...ys),
  });
  return found.map((z) => ({ epsg: z.epsg, name: z.name }));
}

export type Proposal = { mapping: Partial<ColumnMappingInput>; zones: { epsg: number; name: string }[] };

/** The columns that may give the id, in the order they are preferred: case numbers, then row ids. */
export function idCandidates(columns: readonly string[]): string[] {
  const ids = named(columns, 'id');
  return [...ids.filter((c) => !ROW_ID.test(key(c))), ...ids.filter((c) => ROW_ID.test(key(c)))];
}

/** Columns filled and distinct on every row given (the proposal's rows when the whole file was not read). */
export function uniqueIn(rows: readonly Record<string, string>[], columns: readonly string[]): Set<string> {
  return new Set(
    columns.filter((c) => {
      const seen = new Set<string>();
      for (const r of rows) {
        const v = (r[c] ?? '').trim();
        if (v === '' || seen.has(v)) return false;
        seen.add(v);
      }
      return true;
    }),
  );
}

/**
 * `unique`: the id columns whose values are filled and distinct over the whole file (inspect.ts
 * reads it whole); without it, those of `sample`. An id column whose value two rows share would
 * merge distinct records (two victims of one case, the offences of one incident), so only a unique
 * one is proposed — a case number, else a row id — and with none, each row's id is its content
 * (apply.ts: rows identical in every column are one record, rows that differ never merge).
 */
export function proposeMapping(
  columns: readonly string[],
  sample: readonly Record<string, string>[],
  unique: ReadonlySet<string> = uniqueIn(sample, idCandidates(columns)),
): Proposal {
  const m: Partial<ColumnMappingInput> = {};
  const pick = (field: string) => named(columns, field)[0];
  m.id = idCandidates(columns).find((c) => unique.has(c));
  m.type = pick('type');
  m.address = pick('address');
  m.description = pick('description');
  // Dates: by name (the occurrence first) when the values read as dates, else the first column whose values do.
  const dates = named(columns, 'date').filter(
    (c) => !NOT_OCCURRENCE.test(key(c)) && (sample.length === 0 || mostly(sample, c, readsAsDate)),
  );
  m.date =
    dates.find((c) => OCCURRENCE.test(key(c))) ??
    dates[0] ??
    columns.find(
      (c) =>
        sample.length > 0 &&
        sample.every((r) => !r[c] || readsAsDate(r[c] as string)) &&
        /[/-]/.test(sample[0]?.[c] ?? ''),
    );
  // The time: the date column's partner, else a time column by name (the occurrence first).
  const times = named(columns, 'time').filter(
    (c) => c !== m.date && !NOT_OCCURRENCE.test(key(c)) && mostly(sample, c, readsAsTime),
  );
  const paired = m.date !== undefined ? partner(columns, m.date, /(^|_)date(?=_|$)/, '$1time') : undefined;
  m.time =
    (paired !== undefined && times.includes(paired) ? paired : undefined) ??
    times.find((c) => OCCURRENCE.test(key(c))) ??
    times[0];
  let zones: Proposal['zones'] = [];
  const [lat, lon] = [pick('lat'), pick('lon')];
  let [x, y] = [pick('x'), pick('y')];
  if (x === undefined || y === undefined) {
    // X and Y spelled alike: POINT_X / POINT_Y, OpenDataX / OpenDataY, XCOORD / YCOORD.
    for (const c of columns) {
      const other = partner(columns, c, /x$/, 'y') ?? partner(columns, c, /^x/, 'y');
      if (other !== undefined) {
        [x, y] = [c, other];
        break;
      }
    }
  }
  const inRange = (c: string | undefined, max: number) =>
    c !== undefined && numbers(sample, c).length > 0 && numbers(sample, c).every((n) => Math.abs(n) <= max);
  // Latitudes below −60° are Antarctica's: such a "latitude" column holds the longitudes.
  const antarctic = (c: string) => numbers(sample, c).every((n) => n < -60);
  if (lat && lon && inRange(lat, 90) && inRange(lon, 180) && !(antarctic(lat) && inRange(lon, 90)))
    m.location = { kind: 'latlon', lat, lon };
  else if (lat && lon && inRange(lon, 90) && inRange(lat, 180))
    m.location = { kind: 'latlon', lat: lon, lon: lat };
  else if (x && y && inRange(x, 180) && inRange(y, 90)) m.location = { kind: 'latlon', lat: y, lon: x };
  else if (x && y) {
    const xs = numbers(sample, x);
    const ys = numbers(sample, y);
    if (xs.length > 0 && ys.length > 0) {
      zones = fitting(xs, ys);
      m.location = { kind: 'xy', x, y, ...(zones[0] ? { epsg: zones[0].epsg } : {}) };
    }
  }
  // No coordinate columns: a column of points as text (POINT (x y), or (lat, lon)) named as both.
  let pointColumn: string | undefined;
  if (!m.location) {
    pointColumn = columns.find((c) => mostly(sample, c, (v) => pointText(v) !== null));
    const points = sample
      .map((r) => pointText(r[pointColumn ?? ''] ?? ''))
      .filter((p): p is PointText => p !== null && (p.x !== 0 || p.y !== 0));
    if (pointColumn !== undefined && points.length > 0) {
      const c = pointColumn;
      if (points.every((p) => Math.abs(p.x) <= 180 && Math.abs(p.y) <= 90))
        m.location = { kind: 'latlon', lat: c, lon: c };
      else {
        zones = fitting(
          points.map((p) => p.x),
          points.map((p) => p.y),
        );
        m.location = { kind: 'xy', x: c, y: c, ...(zones[0] ? { epsg: zones[0].epsg } : {}) };
      }
    }
  }
  const used = new Set([m.id, m.type, m.address, m.description, m.date, m.time, lat, lon, x, y, pointColumn]);
  // A blank column name (a trailing separator on every line) can be neither mapped nor kept.
  m.keep = columns.filter((c) => !used.has(c) && c.trim() !== '');
  for (const k of Object.keys(m) as (keyof typeof m)[]) if (m[k] === undefined) delete m[k];
  return { mapping: m, zones };
}
