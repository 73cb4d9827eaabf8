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
import { zonesForExtent } from '../../geo/projection';
import { proposeTypeMap } from './vocabulary';

const NAMES: Record<string, RegExp> = {
  id: /^(cdid|id|(incident|inci|case|report|rpt|event|call|cad|dr|rd|complaint|cmplnt|record|master_incident|offen[cs]e|row|arrest)_?(number|num|nbr|no|id)|(incident|arrest|complaint|case|dc)_?key|ccn|objectid|fid|oid|cartodb_id)$/,
  type: /^(type|offen[cs]e(_?(code|type|description|desc|category|group))?|crime(_?(type|code|category|description|desc))?|ofns_?desc|offen[cs]e_?(type|category)_?id|primary_?type|ucr_?(code|desc)?|nibrs_?(code|desc|offense)?|incident_?(type|category|desc)|call_?type|nature(_?code)?|problem|category|charge|crm_cd_desc)$/,
  address:
    /^(address|block_?address|100_block_address|location|street|addr|block|incident_?address|incident_?location|location_?address|location_?block|street_?address|full_?address|address_?block|street_?name|intersection)$/,
  // Any column named with a date (its values must read as dates, and not be an update's).
  date: /(^|_)date|date(_?time)?$|^(timestamp|occurred(_?(on|at))?|reported_?on|when)$/,
  time: /(^|_)time$|^time(_|$)|^hour$/,
  lat: /^(lat|latitude|geo_?lat|y_?lat|point_?y_?lat|lat_?wgs84|latitude_?wgs84)$/,
  lon: /^(lon|lng|long|longitude|geo_?lon|x_?lon|lon_?wgs84|longitude_?wgs84)$/,
  x: /^(x|x_?coord(inate)?(_?cd)?|easting|point_?x|xcoord|state_?plane_?x|x_?sp)$/,
  y: /^(y|y_?coord(inate)?(_?cd)?|northing|point_?y|ycoord|state_?plane_?y|y_?sp)$/,
  description: /^(description|narrative|summary|details|notes|remarks|synopsis|comments)$/,
};

/** Columns that hold when a record was changed or loaded, not when the incident happened. */
const NOT_OCCURRENCE =
  /updat|modif|entered|created|load|extract|birth|dob|clear|clos|arriv|disp(atch)?_?time|datetime_?end|end_?date|to_?date/;
/** The occurrence, before the report: preferred among several date or time columns. */
const OCCURRENCE = /occ|offen[cs]e|start|from|incident|received|call|crime|event/;
/** A bare row id: taken only when no incident, case or call number is there (or unique). */
const ROW_ID = /^(id|row_?id|record_?id|objectid|fid|oid|cartodb_id)$/;

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

/** How sure the proposal is of one field, and why (what the Import view shows beside it). */
export type Certainty = {
  field: 'id' | 'type' | 'address' | 'date' | 'location';
  /** `sure`: names and content agree; `guess`: check it; `none`: nothing proposed. */
  level: 'sure' | 'guess' | 'none';
  note: string;
};

export type Proposal = {
  mapping: Partial<ColumnMappingInput>;
  zones: { epsg: number; name: string }[];
  /** Each field's certainty, in the order the Import view shows them. */
  certainty: Certainty[];
};

/** A column's values over the rows inspected (inspect.ts): the most frequent first, with counts. */
export type ColumnStats = Record<string, { top: { value: string; count: number }[]; more: boolean }>;

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

/** Words of offences, as UCR, NIBRS and city exports write their categories. */
const OFFENCE =
  /theft|larcen|burglar|robber|assault|batter|homicide|murder|manslaughter|rape|sex|sodomy|narcotic|drug|weapon|firearm|vandal|damage|mischief|fraud|forger|embezzl|arson|kidnap|trespass|shoplift|stolen|motor vehicle|auto theft|harass|stalk|intimidat|threat|disorderly|\bdui\b|\bdwi\b|under the influence|liquor|prostitut|gambl|offen[cs]e|crim|shooting|shots? fired|violation|warrant|suspicious|disturb|extortion|brib|counterfeit|breaking|entering|\bb ?& ?e\b|possession|intoxicat|public peace|loiter|curfew|runaway|abduct|child|family|obscen|pornograph|arrest|missing|deceptive|swindle|drunk|vagran|vice/i;
/** Names of columns about something else than the offence (place, weapon, people, status): never the type. */
const OTHER_THAN_TYPE =
  /loc|premis|place|weapon|status|dispos|resolution|race|sex|(^|_)age|officer|agency|name|address|street|block|unit|flag|method|mo_?code|zip|city|state/;
/** Names of a finer description of the offence (a description, a subcategory): not the type while a category is there. */
const FINER = /desc|subcat|sub_?type|detail|narrative/;
/** Names that speak of the offence (a description named so is Austin's Highest Offense Description). */
const OFFENCE_NAME = /offen[cs]e|crime|crm|ofns|nibrs|ucr|charge|category/;
/** Flags: two values such as true/false or Y/N. */
const FLAG = /^(true|false|t|f|y|n|yes|no|0|1)$/i;
/** A code: digits, or a short run of letters and digits with a digit in it (IUCR `0486`, NIBRS `23F`). */
const CODE = /^[-+.\d\s]+$|^(?=.*\d)[a-z0-9.-]{1,6}$/i;
/** Columns analysts filter by, kept first. */
const FILTERS =
  /beat|(^|_)post($|_)|district|(^|_)dist(_|$)|precinct|ward|sector|psa|mcpp|zone|neighbo|community|boro|division|area|tract/;
/** A report, entry or dispatch time: taken only when the file holds no occurrence time. */
const REPORTED = /report|rpt|filed|dispatch|disp_/;
/** A file's name saying what every row is (a file of shootings, of arrests) → the type. */
const FILE_TYPES: [RegExp, string][] = [
  [/shooting/i, 'Shooting'],
  [/arrest/i, 'Arrest'],
  [/robber/i, 'Robbery'],
  [/burglar/i, 'Burglary'],
  [/arson/i, 'Arson'],
  [/vandal/i, 'Vandalism'],
  [/theft|larceny/i, 'Theft'],
  [/assault/i, 'Assault'],
  [/homicide|murder/i, 'Homicide'],
];

type Values = { value: string; count: number }[];

/** A column's values with counts: the inspection's over its rows, else the sample's. */
function valuesOf(
  rows: readonly Record<string, string>[],
  stats: ColumnStats | undefined,
  c: string,
): Values {
  const given = stats?.[c]?.top;
  if (given) return given;
  const counts = new Map<string, number>();
  for (const r of rows) {
    const v = (r[c] ?? '').trim();
    if (v !== '') counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return [...counts].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count);
}

type TypeCandidate = { column: string; score: number; named: boolean; distinct: number };

/**
 * The type column: the one of offence words — many distinct short texts, not codes, flags or
 * numbers — its name first (Primary Type, Offense, OFNS_DESC, Incident Category), then its content
 * (Philadelphia's `text_general_code`). A description or subcategory of the offence is not the type.
 * A column of one value is the type only when its name says so (a file of robberies).
 */
function typeCandidates(
  columns: readonly string[],
  rows: readonly Record<string, string>[],
  stats: ColumnStats | undefined,
): TypeCandidate[] {
  const out: TypeCandidate[] = [];
  for (const c of columns) {
    const k = key(c);
    if (k === '') continue;
    const named = (NAMES.type as RegExp).test(k);
    const values = valuesOf(rows, stats, c);
    const total = values.reduce((n, v) => n + v.count, 0);
    if (total === 0) continue;
    const share = (ok: (v: string) => boolean) =>
      values.reduce((n, v) => n + (ok(v.value) ? v.count : 0), 0) / total;
    const distinct = values.length;
    if (distinct <= 2 && share((v) => FLAG.test(v)) > 0.9) continue;
    if (share((v) => v.length > 100) > 0.1) continue;
    const codes = share((v) => CODE.test(v)) > 0.5;
    const offence = share((v) => OFFENCE.test(v));
    const offenceName = OFFENCE_NAME.test(k);
    const finer = FINER.test(k) && !(/category|group/.test(k) && !/subcat/.test(k));
    if (!named && (OTHER_THAN_TYPE.test(k) || codes || distinct < 3)) continue;
    if (!named && offence < (finer && !offenceName ? 0.5 : 0.3)) continue;
    // A type column with blank cells would refuse those rows: Austin's Category Description is blank outside Part I.
    const filled =
      rows.length === 0 ? 1 : rows.filter((r) => (r[c] ?? '').trim() !== '').length / rows.length;
    let score = (named ? 2 : offenceName ? 0.5 : 0) + 2 * offence + (distinct >= 3 ? 0.5 : 0);
    if (codes) score -= 2;
    if (named && distinct === 1) score -= 0.5;
    if (finer) score -= offenceName ? 0.5 : 1.5;
    if (filled < 0.9) score -= 3;
    if (/category|group/.test(k) && !/subcat/.test(k)) score += 0.25;
    out.push({ column: c, score, named, distinct });
  }
  return out.sort((a, b) => b.score - a.score);
}

/** A date column's values carry a time of day (not every one at midnight). */
function carriesTime(rows: readonly Record<string, string>[], c: string): boolean {
  return rows.some((r) => {
    const w = readDateTime(r[c] ?? '', null);
    return !('expected' in w) && !w.wall.endsWith('T00:00');
  });
}

/** The share of a column's filled sample cells that end in a UTC offset (`+00`, `-05:00`, `Z`). */
const OFFSET = /(?:\d(?:Z|[+-]\d{2}(?::?\d{2})?))$/i;

/**
 * `unique`: the id columns whose values are filled and distinct over the whole file (inspect.ts
 * reads it whole); without it, those of `sample`. An id column whose value two rows share would
 * merge distinct records (two victims of one case, the offences of one incident), so only a unique
 * one is proposed — a case number, else a row id — and with none, each row's id is its content
 * (apply.ts: rows identical in every column are one record, rows that differ never merge).
 * `stats`: each column's values over the rows inspected (the type is judged by them);
 * `fileName`: a file with no type column whose name says what every row is (a file of shootings)
 * gets that as its one type.
 */
export function proposeMapping(
  columns: readonly string[],
  sample: readonly Record<string, string>[],
  unique: ReadonlySet<string> = uniqueIn(sample, idCandidates(columns)),
  more: { stats?: ColumnStats; fileName?: string } = {},
): Proposal {
  const m: Partial<ColumnMappingInput> = {};
  const certainty: Certainty[] = [];
  const say = (field: Certainty['field'], level: Certainty['level'], note: string) =>
    certainty.push({ field, level, note });
  const pick = (field: string) => named(columns, field)[0];
  const ids = idCandidates(columns);
  m.id = ids.find((c) => unique.has(c));
  if (m.id !== undefined)
    say(
      'id',
      'sure',
      `${m.id}: filled and different on every row${ROW_ID.test(key(m.id)) ? ' (a row id)' : ''}.`,
    );
  else if (ids.length > 0)
    say(
      'id',
      'sure',
      `${ids.join(', ')} repeat${ids.length === 1 ? 's' : ''} (or ${ids.length === 1 ? 'is' : 'are'} blank): each row is known by its content, so no record merges into another.`,
    );
  else say('id', 'sure', 'No id column: each row is known by its content.');
  // The type: the column of offence words.
  const types = typeCandidates(columns, sample, more.stats);
  const best = types[0];
  if (best !== undefined) {
    m.type = best.column;
    const next = types[1];
    const clear = next === undefined || best.score - next.score >= 1;
    const level = best.named && best.distinct > 1 && best.score >= 3.5 && clear ? 'sure' : 'guess';
    const why = !best.named
      ? `${best.column} holds offence words (chosen by its content, not its name)`
      : best.distinct === 1
        ? `${best.column} is named as the type, though every row has the same value`
        : `${best.column} holds ${best.distinct.toLocaleString('en-US')}${more.stats?.[best.column]?.more ? '+' : ''} distinct offence texts`;
    // Its categories onto Blotter's types, by the built-in vocabulary (the rest keep their text).
    const typeMap = proposeTypeMap(valuesOf(sample, more.stats, best.column).map((v) => v.value));
    if (Object.keys(typeMap).length > 0) m.typeMap = typeMap;
    say('type', level, `${why}${!clear && next ? `; ${next.column} could be too` : ''}.`);
  } else {
    const named = FILE_TYPES.find(([re]) => re.test(more.fileName ?? ''));
    if (named) {
      m.constantType = named[1];
      say(
        'type',
        'guess',
        `No column holds the offence; the file's name says every row is a ${named[1].toLowerCase()}.`,
      );
    } else say('type', 'none', 'No column holds the offence: choose it, or give one type for every row.');
  }
  m.address = pick('address');
  // A street name beside a block or house number column: the two make the address.
  if (m.address !== undefined && /street|st_?name/.test(key(m.address)))
    m.block = columns.find(
      (c) => /^(block|house|street)_?(number|num|nbr|no)$|^block_?nbr$/.test(key(c)) && c !== m.address,
    );
  m.description = pick('description');
  if (m.description === m.type) delete m.description;
  say(
    'address',
    m.address !== undefined ? 'sure' : 'none',
    m.address === undefined
      ? 'No address or block column.'
      : m.block !== undefined
        ? `${m.block} then ${m.address}: the block and the street.`
        : `${m.address}: the address or block.`,
  );
  // Dates: by name when the values read as dates — the occurrence first, then a column that is not
  // a report's, then a report or dispatch time (said so) — else the first column whose values read.
  const dates = named(columns, 'date').filter(
    (c) => !NOT_OCCURRENCE.test(key(c)) && (sample.length === 0 || mostly(sample, c, readsAsDate)),
  );
  const withTime = (list: string[]) => list.find((c) => carriesTime(sample, c)) ?? list[0];
  const occurrence = dates.filter((c) => OCCURRENCE.test(key(c)) && !REPORTED.test(key(c)));
  const plain = dates.filter((c) => !OCCURRENCE.test(key(c)) && !REPORTED.test(key(c)));
  const reported = dates.filter((c) => REPORTED.test(key(c)));
  m.date =
    withTime(occurrence) ??
    withTime(plain) ??
    withTime(reported) ??
    columns.find(
      (c) =>
        sample.length > 0 &&
        sample.every((r) => !r[c] || readsAsDate(r[c] as string)) &&
        /[/-]/.test(sample[0]?.[c] ?? ''),
    );
  // The time: none when the date carries one; else the date column's partner, else a time column by name (the occurrence first).
  const times = named(columns, 'time').filter(
    (c) => c !== m.date && !NOT_OCCURRENCE.test(key(c)) && mostly(sample, c, readsAsTime),
  );
  const paired = m.date !== undefined ? partner(columns, m.date, /(^|_)date(?=_|$)/, '$1time') : undefined;
  if (m.date === undefined || !carriesTime(sample, m.date))
    m.time =
      (paired !== undefined && times.includes(paired) ? paired : undefined) ??
      times.find((c) => OCCURRENCE.test(key(c)) && !REPORTED.test(key(c))) ??
      times.find((c) => !REPORTED.test(key(c))) ??
      (m.date !== undefined && REPORTED.test(key(m.date)) ? times[0] : undefined);
  if (m.date === undefined) say('date', 'none', 'No column reads as dates: choose the date of the incident.');
  else {
    const when = m.time !== undefined ? `${m.date} with the time in ${m.time}` : m.date;
    const offset = mostly(sample, m.date, (v) => OFFSET.test(v))
      ? ' Its times carry a UTC offset: each is read as that instant, shown in the incident’s zone.'
      : '';
    // Other report times (Charlottesville's local HourReported beside its UTC DateReported) are kept.
    const others = columns.filter(
      (c) => c !== m.date && c !== m.time && REPORTED.test(key(c)) && /date|time|hour/.test(key(c)),
    );
    if (reported.includes(m.date))
      say(
        'date',
        'guess',
        `This file holds no time of occurrence: ${when}, when it was reported or dispatched, is taken instead.${offset}${others.length > 0 ? ` Also kept: ${others.join(', ')}.` : ''}`,
      );
    else if (occurrence.includes(m.date) || (plain.includes(m.date) && plain.length === 1))
      say('date', 'sure', `${when}: when the incident occurred.${offset}`);
    else say('date', 'guess', `${when}: read as dates; check it is when the incident occurred.${offset}`);
  }
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
  let where = '';
  if (lat && lon && inRange(lat, 90) && inRange(lon, 180) && !(antarctic(lat) && inRange(lon, 90))) {
    m.location = { kind: 'latlon', lat, lon };
    where = `${lat} and ${lon}, in degrees.`;
  } else if (lat && lon && inRange(lon, 90) && inRange(lat, 180)) {
    m.location = { kind: 'latlon', lat: lon, lon: lat };
    where = `${lat} holds longitudes and ${lon} latitudes: read swapped.`;
  } else if (x && y && inRange(x, 180) && inRange(y, 90)) {
    m.location = { kind: 'latlon', lat: y, lon: x };
    where = `${x} and ${y}, in degrees.`;
  } else if (x && y) {
    const xs = numbers(sample, x);
    const ys = numbers(sample, y);
    if (xs.length > 0 && ys.length > 0) {
      zones = fitting(xs, ys);
      m.location = { kind: 'xy', x, y, ...(zones[0] ? { epsg: zones[0].epsg } : {}) };
      where = `${x} and ${y} in ${zones[0] ? `EPSG:${zones[0].epsg} (${zones[0].name})` : 'an unknown system'}`;
    }
  }
  // No coordinate columns: a column of points as text (POINT (x y), (lat, lon), hex WKB) named as both.
  let pointColumn: string | undefined;
  if (!m.location) {
    pointColumn = columns.find((c) => mostly(sample, c, (v) => pointText(v) !== null));
    const points = sample
      .map((r) => pointText(r[pointColumn ?? ''] ?? ''))
      .filter((p): p is PointText => p !== null && (p.x !== 0 || p.y !== 0));
    if (pointColumn !== undefined && points.length > 0) {
      const c = pointColumn;
      if (points.every((p) => Math.abs(p.x) <= 180 && Math.abs(p.y) <= 90)) {
        m.location = { kind: 'latlon', lat: c, lon: c };
        where = `${c}: a point in each cell, in degrees.`;
      } else {
        zones = fitting(
          points.map((p) => p.x),
          points.map((p) => p.y),
        );
        m.location = { kind: 'xy', x: c, y: c, ...(zones[0] ? { epsg: zones[0].epsg } : {}) };
        where = `${c}: a point in each cell, in ${zones[0] ? `EPSG:${zones[0].epsg} (${zones[0].name})` : 'an unknown system'}`;
      }
    }
  }
  if (m.location === undefined && (m.address !== undefined || m.block !== undefined)) {
    // An address-only file (Charlottesville's): imported as proposed, its rows wait as unplaced.
    m.location = { kind: 'none' };
    say(
      'location',
      'guess',
      `No coordinates: no latitude and longitude, X/Y or point column. The rows import as unplaced and are placed from ${m.address ?? m.block} where the archive's blocks or a reference file allow.`,
    );
  } else if (m.location === undefined)
    say('location', 'none', 'No coordinates: no latitude and longitude, X/Y or point column.');
  else if (m.location.kind === 'latlon') say('location', 'sure', where);
  else
    say(
      'location',
      zones.length === 1 ? 'sure' : 'guess',
      zones.length === 1
        ? `${where}, the one zone they fit.`
        : `${where}${zones.length > 1 ? `; they fit ${zones.length} zones: check it` : ': choose the coordinate system'}.`,
    );
  const used = new Set([
    m.id,
    m.type,
    m.address,
    m.block,
    m.description,
    m.date,
    m.time,
    lat,
    lon,
    x,
    y,
    pointColumn,
  ]);
  // A blank column name (a trailing separator on every line) can be neither mapped nor kept.
  const rest = columns.filter((c) => !used.has(c) && c.trim() !== '');
  // The columns analysts filter by (beat, district, precinct, ward) first, then the others.
  m.keep = [...rest.filter((c) => FILTERS.test(key(c))), ...rest.filter((c) => !FILTERS.test(key(c)))];
  for (const k of Object.keys(m) as (keyof typeof m)[]) if (m[k] === undefined) delete m[k];
  return { mapping: m, zones, certainty };
}
