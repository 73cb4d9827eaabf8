/**
 * One record of an import file → one row for the store, or the reason it cannot be one.
 * Accepted fields (names case-insensitive; aliases in brackets) — see README.md:
 * cdid [id], type, address, lat [latitude], lon [lng, long, longitude], link [url, permalink],
 * and the time as either occurred_local (YYYY-MM-DDTHH:MM) + timezone (IANA), as Blotter writes
 * them, or date_raw [date] in the API's MM/DD/YY HH:MM AM/PM, whose zone follows from lat/lon;
 * optional: occurred_utc (must agree), description, first_seen, last_seen (ISO-8601), removed.
 */
import { weekdayOf } from '../../../src-shared/filters';
import { formatLegacyDate, parseLegacyDate, wallAsUtcMs, type WallTime } from '../time/legacyDate';
import { zoneAt } from '../time/zoneAt';
import { isKnownZone, wallToUtc } from './zoneClock';

/** A row for the store, in the column order of merge.ts. */
export type ImportRow = [
  cdid: number,
  type: string,
  address: string,
  lat: number,
  lon: number,
  link: string,
  dateRaw: string,
  occurredLocal: string,
  timezone: string,
  occurredUtc: number,
  timeFlag: string | null,
  localDay: string,
  localHour: number,
  localWeekday: number,
  description: string | null,
  firstSeen: number | null,
  lastSeen: number | null,
  removed: number,
  /** A mapped file's kept columns, as a JSON object (rowChecks.ts). */
  attributes?: string | null,
  /** A mapped file's own id for the row. */
  externalId?: string | null,
  /** The source file's own category (a mapped file's type column; a Blotter export's `subtype`). */
  subtype?: string | null,
];

export type RowProblem = { field: string | null; message: string };

const ALIASES: Record<string, string> = {
  id: 'cdid',
  latitude: 'lat',
  lng: 'lon',
  long: 'lon',
  longitude: 'lon',
  url: 'link',
  permalink: 'link',
  date: 'date_raw',
};

/** The canonical name of a field (lower case, aliases resolved). */
export const canonicalKey = (key: string): string => {
  const k = key.trim().toLowerCase();
  return ALIASES[k] ?? k;
};

const FORMULA = /^'[=+\-@\t\r]/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const NUMBER = /^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
const LINK = /^https?:\/\//i;

class Problem extends Error {
  constructor(
    readonly field: string | null,
    message: string,
  ) {
    super(message);
  }
}

export type NormalizeOptions = {
  /**
   * A mapped file (mapping/apply.ts): ids from another system come as negative whole numbers (their
   * own namespace, never an API cdid), which are accepted beside ordinary cdids. A Blotter CSV
   * too: its rows from a mapped import carry that namespaced cdid, which they keep.
   */
  namespaced?: boolean;
  /** Blotter CSV: undo the export's formula neutralising (a leading ' before = + - @ tab CR). */
  unneutralise: boolean;
  /** Blotter CSV: read its `attributes` column (a mapped import's kept columns; keptColumns). */
  keptColumns?: boolean;
  /**
   * The latest instant (epoch ms) a row's times may name: the import's clock plus a day's skew
   * (FUTURE_SKEW_MS). A later occurrence, first_seen or last_seen is refused: a last_seen in 2099
   * would otherwise win every later comparison. Absent: no limit.
   */
  notAfter?: number;
};

/** How far ahead of this computer's clock a row's times may be (clock skew, zones). */
export const FUTURE_SKEW_MS = 86_400_000;

function notFuture(ms: number | null, field: string, notAfter: number | undefined): void {
  if (ms === null || notAfter === undefined || ms <= notAfter) return;
  throw new Problem(
    field,
    `${field} is in the future (${new Date(ms).toISOString()}); times more than a day ahead of this computer's clock are refused.`,
  );
}

export function normalize(rec: Record<string, unknown>, opts: NormalizeOptions): ImportRow | RowProblem {
  try {
    return toRow(rec, opts);
  } catch (error) {
    if (error instanceof Problem) return { field: error.field, message: error.message };
    throw error;
  }
}

// Field readers: plain functions (no closures per row), throwing a Problem for the row.

function text(
  rec: Record<string, unknown>,
  key: string,
  required: boolean,
  max: number,
  unneutralise: boolean,
): string | null {
  const v = rec[key];
  if (v === undefined || v === null || v === '') {
    if (required) throw new Problem(key, `${key} is missing.`);
    return null;
  }
  if (typeof v !== 'string' && typeof v !== 'number') throw new Problem(key, `${key} must be text.`);
  let s = typeof v === 'string' ? v : String(v);
  if (unneutralise && s.charCodeAt(0) === 39 && FORMULA.test(s)) s = s.slice(1);
  if (s.length > max) throw new Problem(key, `${key} is longer than ${max} characters.`);
  return s;
}

function number(rec: Record<string, unknown>, key: string, min: number, max: number): number {
  const v = rec[key];
  if (v === undefined || v === null || v === '') throw new Problem(key, `${key} is missing.`);
  const n = typeof v === 'number' ? v : typeof v === 'string' && NUMBER.test(v) ? Number(v) : Number.NaN;
  if (!Number.isFinite(n) || n < min || n > max)
    throw new Problem(key, `${key} must be a number from ${min} to ${max}.`);
  return n;
}

/** ISO-8601 instants; the form Blotter writes (2025-05-10T18:30:00.000Z) is read without Date.parse. */
function instant(rec: Record<string, unknown>, key: string): number | null {
  const s = text(rec, key, false, 40, false);
  if (s === null) return null;
  if (s.length === 24 && s.charCodeAt(23) === 90 && s.charCodeAt(10) === 84 && s.charCodeAt(19) === 46) {
    const ms = blotterInstant(s);
    if (ms !== null) return ms;
  }
  const ms = INSTANT.test(s) ? Date.parse(s) : Number.NaN;
  if (Number.isNaN(ms))
    throw new Problem(key, `${key} must be an ISO-8601 instant such as 2025-05-10T18:30:00.000Z.`);
  return ms;
}

function toRow(rec: Record<string, unknown>, opts: NormalizeOptions): ImportRow {
  const un = opts.unneutralise;
  const cdid = number(rec, 'cdid', opts.namespaced ? -Number.MAX_SAFE_INTEGER : 1, Number.MAX_SAFE_INTEGER);
  if (!Number.isInteger(cdid) || cdid === 0) throw new Problem('cdid', 'cdid must be a whole number.');
  const type = text(rec, 'type', true, 100, un) as string;
  const address = text(rec, 'address', false, 500, un) ?? '';
  const lat = number(rec, 'lat', -90, 90);
  const lon = number(rec, 'lon', -180, 180);
  const link = text(rec, 'link', false, 2000, un) ?? '';
  if (link && !LINK.test(link)) throw new Problem('link', 'link must be an http(s) address.');

  let wall: WallFacts;
  let zone: string;
  const local = text(rec, 'occurred_local', false, 40, un);
  const zoneText = text(rec, 'timezone', false, 100, un);
  let dateRaw = text(rec, 'date_raw', false, 40, un);
  if (local !== null && zoneText !== null) {
    wall = localFacts(local);
    if (!isKnownZone(zoneText))
      throw new Problem('timezone', `timezone "${zoneText}" is not an IANA time zone.`);
    zone = zoneText;
    dateRaw ??= legacyOf(wall);
  } else if (dateRaw !== null) {
    const parsed = parseLegacyDate(dateRaw);
    if (!parsed) throw new Problem('date_raw', 'date must read MM/DD/YY HH:MM AM/PM, as the API writes it.');
    wall = factsOf(parsed, dateRaw);
    zone = zoneAt(lat, lon);
  } else {
    throw new Problem(
      'occurred_local',
      'No time: give occurred_local and timezone, or date (MM/DD/YY HH:MM AM/PM).',
    );
  }
  const fake = wall.fake;
  const computed = wallToUtc(fake, zone);
  let utc = computed.utcMs;
  const given = instant(rec, 'occurred_utc');
  if (given !== null && given !== utc) {
    // The other reading of an ambiguous hour is fine; anything else contradicts the wall time.
    if (computed.flag !== 'ambiguous' || given < utc || given - utc > 3 * 3_600_000)
      throw new Problem('occurred_utc', 'occurred_utc does not match occurred_local in its time zone.');
    utc = given;
  }
  notFuture(utc, local !== null && zoneText !== null ? 'occurred_local' : 'date_raw', opts.notAfter);
  const firstSeen = instant(rec, 'first_seen');
  const lastSeen = instant(rec, 'last_seen');
  notFuture(firstSeen, 'first_seen', opts.notAfter);
  notFuture(lastSeen, 'last_seen', opts.notAfter);
  const row: ImportRow = [
    cdid,
    type,
    address,
    lat,
    lon,
    link,
    dateRaw,
    wall.local,
    zone,
    utc,
    computed.flag,
    wall.day,
    wall.hour,
    wall.weekday,
    text(rec, 'description', false, 100_000, un),
    firstSeen,
    lastSeen,
    flag(rec.removed),
  ];
  const attributes = opts.keptColumns === true ? keptColumns(rec) : null;
  if (attributes !== null) row[18] = attributes;
  // A Blotter export's subtype column: the category its source file gave the incident.
  const subtype = opts.keptColumns === true ? text(rec, 'subtype', false, 200, un) : null;
  if (subtype !== null) row[20] = subtype;
  return row;
}

/**
 * A Blotter export's `attributes` cell (a mapped import's kept columns, as the export wrote them):
 * a JSON object of texts, kept as such; empty is none.
 */
function keptColumns(rec: Record<string, unknown>): string | null {
  const s = text(rec, 'attributes', false, 1_000_000, false);
  if (s === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(s);
  } catch {
    value = undefined;
  }
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    !Object.values(value).every((v) => typeof v === 'string')
  )
    throw new Problem('attributes', 'attributes must be a JSON object of texts, as Blotter exports it.');
  return JSON.stringify(value);
}

const pad = (n: number): string => (n < 10 ? `0${n}` : String(n));

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysInMonth = (y: number, m: number): number =>
  m === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : (MONTH_DAYS[m - 1] ?? 0);

/** Digits of `s` from `at`, `n` of them, as a number; NaN when any is not a digit. */
function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return Number.NaN;
    v = v * 10 + c;
  }
  return v;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (Hinnant's days_from_civil), for every year (0–99 too). */
function civilDays(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** `YYYY-MM-DDTHH:MM:SS.sssZ` (what Blotter writes) as epoch ms, or null when it is not exactly that. */
function blotterInstant(s: string): number | null {
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58)
    return null;
  const y = digits(s, 0, 4);
  const mo = digits(s, 5, 2);
  const d = digits(s, 8, 2);
  const h = digits(s, 11, 2);
  const mi = digits(s, 14, 2);
  const sec = digits(s, 17, 2);
  const ms = digits(s, 20, 3);
  if (!(
    mo >= 1 &&
    mo <= 12 &&
    d >= 1 &&
    d <= daysInMonth(y, mo) &&
    h <= 23 &&
    mi <= 59 &&
    sec <= 59 &&
    ms >= 0
  ))
    return null;
  return civilDays(y, mo, d) * 86_400_000 + h * 3_600_000 + mi * 60_000 + sec * 1000 + ms;
}

/** What a row's wall time gives its columns, worked out once per distinct wall time. */
type WallFacts = {
  /** The wall clock read as if it were UTC (epoch ms). */
  fake: number;
  /** `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM`, the hour and the weekday (0 = Sunday). */
  day: string;
  local: string;
  hour: number;
  weekday: number;
  /**
   * The API's `MM/DD/YY HH:MM AM/PM` of it (date_raw when the file has none), or the file's own;
   * null until a row without date_raw asks (`legacyOf`).
   */
  legacy: string | null;
  wall: WallTime;
};

function factsOf(wall: WallTime, legacy: string | null, local?: string): WallFacts {
  const fake = wallAsUtcMs(wall);
  const day =
    local === undefined
      ? `${String(wall.year).padStart(4, '0')}-${pad(wall.month)}-${pad(wall.day)}`
      : local.slice(0, 10);
  return {
    fake,
    day,
    local: local ?? `${day}T${pad(wall.hour)}:${pad(wall.minute)}`,
    hour: wall.hour,
    weekday: weekdayOf(Math.floor(fake / 86_400_000)),
    legacy,
    wall,
  };
}

/** The API's date text of a wall time, formatted once per distinct wall time. */
function legacyOf(facts: WallFacts): string {
  return (facts.legacy ??= formatLegacyDate(facts.wall));
}

// A file repeats its wall times (a minute's resolution): each distinct one is read once per thread.
const WALL_MEMO_LIMIT = 100_000;
const wallMemo = new Map<string, WallFacts>();

/**
 * An occurred_local text's facts; throws its Problem when it is not a real YYYY-MM-DDTHH:MM. The
 * text, once checked, is its own `local` (exactly YYYY-MM-DDTHH:MM) and its first ten characters
 * its day.
 */
function localFacts(local: string): WallFacts {
  let facts = wallMemo.get(local);
  if (facts === undefined) {
    facts = factsOf(parseLocal(local), null, local);
    if (wallMemo.size >= WALL_MEMO_LIMIT) wallMemo.clear();
    wallMemo.set(local, facts);
  }
  return facts;
}

function parseLocal(text: string): WallTime {
  const ok =
    text.length === 16 &&
    text.charCodeAt(4) === 45 &&
    text.charCodeAt(7) === 45 &&
    text.charCodeAt(10) === 84 &&
    text.charCodeAt(13) === 58;
  const year = ok ? digits(text, 0, 4) : Number.NaN;
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  if (!(
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    hour <= 23 &&
    minute <= 59
  ))
    throw new Problem('occurred_local', 'occurred_local must be a local time written YYYY-MM-DDTHH:MM.');
  return { year, month, day, hour, minute };
}

function flag(v: unknown): number {
  if (v === undefined || v === null || v === '' || v === false || v === 0) return 0;
  if (v === true || v === 1) return 1;
  const s = String(v).trim().toLowerCase();
  if (s === 'true' || s === '1' || s === 'yes') return 1;
  if (s === 'false' || s === '0' || s === 'no') return 0;
  throw new Problem('removed', 'removed must be true or false.');
}
