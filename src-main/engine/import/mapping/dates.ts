/**
 * Dates and times as records systems write them, read into a local wall time (`YYYY-MM-DDTHH:MM`)
 * and, when the text carries one, a UTC offset. One column (date and time together) or two (a
 * date column and a time column). Accepted:
 * - ISO-8601: `2025-05-10`, `2025-05-10T13:30[:ss[.fff]]`, `2025-05-10 13:30`, with `Z`, `±hh:mm` or
 *   `±hh` (PostgreSQL's `2025-01-07 02:45:00+00`: an instant, its offset honoured);
 * - year first with slashes or dots (San Francisco's `2018/12/01 12:25:00 AM`, `2025.05.10 13:30`),
 *   or with dashes and a 12-hour time, a 12- or 24-hour time and an optional offset as above;
 *   a dispatch system's compact `20250510`, `20250510 1430`, `20250510143015`; epoch milliseconds
 *   (`1746887400000`, ArcGIS's GeoJSON and JSON dates), an instant;
 * - with the month's name: `2025 May 10 02:30:00 PM` (Seattle), `10-MAY-25` (Oracle), `May 10, 2025`;
 * - US: `5/10/2025`, `05/10/25`, `05-10-2025`, with `1:30 PM`, `13:30`, `13:30:00`; a two-digit year is this
 *   century's unless that is past next year, then the last century's (`5/1/99` is 1999) — other
 *   systems' files hold years of history, unlike the API's rolling window;
 * - Excel serial dates: `45787` (a day) or `45787.5625` (the fraction is the time of day), from
 *   1900-03-01 on (Excel's 1900 leap-year bug makes earlier serials ambiguous);
 * - a separate time column: `13:30`, `1:30 PM`, `1330` / `0130` / `130` (24-hour HHMM, the leading
 *   zero a spreadsheet drops allowed), `133015` (HHMMSS), `13:30:00`, or an Excel day fraction `0.5625`. One or two
 *   digits alone are refused: `14` may be an hour or 00:14.
 * A value without an offset is a wall time in the incident's own zone (the importer finds the zone
 * from the location, as for synced incidents).
 */

export type DateStyle = 'auto' | 'iso' | 'us' | 'excel';

export type ReadTime = { readonly wall: string; readonly offsetMinutes: number | null };

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
/**
 * Year first with slashes, dots or dashes (`2018/12/01 12:25:00 AM`, `2025.05.10 13:30`), the time
 * read as any clock (12- or 24-hour), then an optional offset (`Z`, `+00`, `-05:00`).
 */
const YEAR_FIRST = /^(\d{4})([/.-])(\d{1,2})\2(\d{1,2})(?:[ T]+(.+?))?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
/** `5/10/2025`, or with dashes `05-10-2025` as some records systems write it (the same mark twice). */
const US = /^(\d{1,2})([/-])(\d{1,2})\2(\d{2}|\d{4})(?:[ T]+(.+))?$/;
const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*([AP]\.?M\.?)?$/i;
/** 24-hour HHMM; also HMM (`930`), as a spreadsheet writes 0930 once it has read it as a number. */
const HHMM = /^(\d{1,2})(\d{2})$/;
const SERIAL = /^\d{1,7}(?:\.\d+)?$/;
/** A dispatch system's compact stamp: `20250510`, `20250510 1430`, `20250510143015`. */
const COMPACT = /^(\d{4})(\d{2})(\d{2})(?:[ T]?(\d{2}):?(\d{2})(?::?\d{2})?)?$/;
/** Epoch milliseconds, as ArcGIS writes a date field in GeoJSON and JSON (1973 to 2286). */
const EPOCH_MS = /^\d{12,13}$/;
/** HHMMSS (`143015`), the seconds dropped. */
const HHMMSS = /^(\d{2})(\d{2})\d{2}$/;
const DAY_FRACTION = /^0?\.\d+$/;

/** Next year: a two-digit year is the latest year that does not pass it (`27` in 2026 is 2027, `28` 1928). */
const NEXT_YEAR = new Date().getUTCFullYear() + 1;
const CENTURY = NEXT_YEAR - (NEXT_YEAR % 100);
const fullYear = (yy: number): number => (CENTURY + yy <= NEXT_YEAR ? CENTURY + yy : CENTURY - 100 + yy);

const p2 = (n: number) => (n < 10 ? `0${n}` : String(n));

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function validDay(y: number, m: number, d: number): boolean {
  if (!(m >= 1 && m <= 12 && d >= 1)) return false;
  const leap = m === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= (MONTH_DAYS[m - 1] as number) + (leap ? 1 : 0);
}

/** The most characters a date or time cell (spaces around it aside) is read with. */
const MAX_DATE_CHARS = 100;
const tooLong = (text: string): boolean =>
  text.length > MAX_DATE_CHARS && text.trim().length > MAX_DATE_CHARS;

/** A time of day → minutes after midnight, or null. */
export function readClock(text: string): number | null {
  if (tooLong(text)) return null;
  const s = text.trim();
  let m = CLOCK.exec(s);
  if (m) {
    let h = Number(m[1]);
    const min = Number(m[2]);
    const ap = m[4]?.replace(/\./g, '').toUpperCase();
    if (ap) {
      if (h < 1 || h > 12) return null;
      h = (h % 12) + (ap === 'PM' ? 12 : 0);
    }
    return h < 24 && min < 60 ? h * 60 + min : null;
  }
  m = HHMM.exec(s) ?? HHMMSS.exec(s);
  if (m) {
    const h = Number(m[1]);
    const min = Number(m[2]);
    return h < 24 && min < 60 ? h * 60 + min : null;
  }
  if (DAY_FRACTION.test(s)) {
    const minutes = minutesOfFraction(Number(s));
    return minutes < 1440 ? minutes : null;
  }
  return null;
}

/**
 * A day fraction → whole minutes, as a clock reads it: to the second first (a serial carries
 * float noise: 23:59:59 is .999988425…), then the seconds dropped — so 23:59:59 is 23:59, not
 * 24:00 (which would be refused, or be the next day).
 */
const minutesOfFraction = (f: number): number => Math.floor(Math.round(f * 86_400) / 60);

/** Excel's serial day (1900 system, from 1900-03-01 = 61) → [y, m, d, minutes]. */
function fromSerial(serial: number): [number, number, number, number] | null {
  if (!(serial >= 61 && serial < 2_958_466)) return null;
  const day = Math.floor(serial);
  const minutes = minutesOfFraction(serial - day);
  const ms = Date.UTC(1899, 11, 30) + day * 86_400_000;
  const d = new Date(ms);
  if (minutes >= 1440) return null;
  return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), minutes];
}

/**
 * A date cell read: the day as `YYYY-MM-DDT`, and the time and offset it carried, if any; `times`
 * holds its readings per minute of the day once made, so a repeated day and time is the same
 * object (and the same wall text, whose hash the next memo then has at hand).
 */
type DatePart =
  { day: string; minutes: number | null; offset: number | null; times: ReadTime[] } | { expected: string };

/** `HH:MM` for each minute of the day. */
const CLOCK_TEXT = Array.from({ length: 1440 }, (_, m) => `${p2(Math.floor(m / 60))}:${p2(m % 60)}`);

// A file repeats its days and times: each distinct cell is read once per thread (bounded memos).
const MEMO_LIMIT = 50_000;
const dateMemos: Record<DateStyle, Map<string, DatePart>> = {
  auto: new Map(),
  iso: new Map(),
  us: new Map(),
  excel: new Map(),
};
const clockMemo = new Map<string, number | null>();

function remember<K, V>(memo: Map<K, V>, key: K, value: V): V {
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, value);
  return value;
}

function clockOf(text: string): number | null {
  const hit = clockMemo.get(text);
  return hit !== undefined || clockMemo.has(text)
    ? (hit as number | null)
    : remember(clockMemo, text, readClock(text));
}

/**
 * A date (and maybe time) cell, with an optional separate time cell → a wall time and offset, or
 * an explanation of what was expected.
 */
export function readDateTime(
  dateText: string,
  timeText: string | null,
  style: DateStyle = 'auto',
): ReadTime | { expected: string } {
  // A cell far longer than any date is none: refused before the patterns (whose optional time
  // part backtracks in the square of a long cell's length) and never kept in a memo.
  if (tooLong(dateText))
    return { expected: `${EXPECTED[style]}, not ${dateText.length.toLocaleString('en-US')} characters` };
  if (timeText !== null && tooLong(timeText))
    return { expected: `a time such as 13:30, not ${timeText.length.toLocaleString('en-US')} characters` };
  const memo = dateMemos[style];
  const part = memo.get(dateText) ?? remember(memo, dateText, readDate(dateText, style));
  if ('expected' in part) return part;
  let minutes = part.minutes;
  if (timeText !== null && timeText !== '' && timeText.trim() !== '') {
    const t = clockOf(timeText);
    if (t === null) return { expected: 'a time such as 13:30, 1:30 PM or 1330' };
    minutes = t;
  }
  const m = minutes ?? 0;
  return (part.times[m] ??= { wall: part.day + (CLOCK_TEXT[m] as string), offsetMinutes: part.offset });
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** Seattle's `2025 May 10 02:30:00 PM`. */
const YEAR_MONTH_DAY = /^(\d{4})\s+([a-z]{3,9})\.?\s+(\d{1,2})(?:[ T]+(.+))?$/i;
/** Oracle's `10-MAY-25` (or `10-May-2025`, `10 May 2025`). */
const DAY_MONTH_YEAR = /^(\d{1,2})[- ]([a-z]{3,9})\.?[- ](\d{2}|\d{4})(?:[ T]+(.+))?$/i;
/** `May 10, 2025`. */
const MONTH_DAY_YEAR = /^([a-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})(?:[ T]+(.+))?$/i;

const MONTH_NAMES = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** A month's abbreviation (`May`, `SEP`, `Sept`) or whole name → 1–12; 0 when it is neither. */
const monthOf = (name: string): number => {
  const lower = name.toLowerCase();
  const k = MONTHS.indexOf(lower.slice(0, 3));
  return k >= 0 && (lower.length === 3 || lower === 'sept' || MONTH_NAMES[k] === lower) ? k + 1 : 0;
};

/** A date written with its month's name → [y, m, d, minutes or null], what was expected, or null (not this shape). */
function withMonthName(s: string): [number, number, number, number | null] | { expected: string } | null {
  let y: number, mo: number, d: number, time: string | undefined;
  let m = YEAR_MONTH_DAY.exec(s);
  if (m) [y, mo, d, time] = [Number(m[1]), monthOf(m[2] as string), Number(m[3]), m[4]];
  else if ((m = DAY_MONTH_YEAR.exec(s))) {
    const yy = m[3] as string;
    [y, mo, d, time] = [
      yy.length === 2 ? fullYear(Number(yy)) : Number(yy),
      monthOf(m[2] as string),
      Number(m[1]),
      m[4],
    ];
  } else if ((m = MONTH_DAY_YEAR.exec(s)))
    [y, mo, d, time] = [Number(m[3]), monthOf(m[1] as string), Number(m[2]), m[4]];
  else return null;
  if (mo === 0) return null;
  const minutes = time === undefined ? null : readClock(time);
  if (time !== undefined && minutes === null) return { expected: EXPECTED.auto };
  return [y, mo, d, minutes];
}

/** A compact stamp as the ISO reading's groups (year, month, day, hour, minute; no offset). */
function compact(s: string): RegExpExecArray | null {
  const m = COMPACT.exec(s);
  if (!m || Number(m[1]) < 1900 || Number(m[1]) > 2100) return null;
  return m;
}

/** `Z`, `+00`, `-0500` or `+05:30` → minutes east of UTC. */
function offsetOf(z: string): number {
  if (z.toUpperCase() === 'Z') return 0;
  const digits = z.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + (digits.length > 2 ? Number(digits.slice(2)) : 0);
  return z[0] === '-' ? -minutes : minutes;
}

function readDate(dateText: string, style: DateStyle): DatePart {
  const s = dateText.trim();
  let y: number, mo: number, d: number;
  let minutes: number | null = null;
  let offset: number | null = null;
  const iso = style === 'auto' || style === 'iso' ? (ISO.exec(s) ?? compact(s)) : null;
  const ymd = !iso && (style === 'auto' || style === 'iso') ? YEAR_FIRST.exec(s) : null;
  const us = !iso && !ymd && (style === 'auto' || style === 'us') ? US.exec(s) : null;
  let named: [number, number, number, number | null] | { expected: string } | null;
  if (iso) {
    [y, mo, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
    if (iso[4] !== undefined) minutes = Number(iso[4]) * 60 + Number(iso[5]);
    if (minutes !== null && (Number(iso[4]) > 23 || Number(iso[5]) > 59)) return { expected: EXPECTED.iso };
    if (iso[7]) offset = offsetOf(iso[7]);
  } else if (ymd) {
    [y, mo, d] = [Number(ymd[1]), Number(ymd[3]), Number(ymd[4])];
    if (ymd[5] !== undefined) {
      minutes = readClock(ymd[5]);
      if (minutes === null) return { expected: EXPECTED[style] };
    }
    if (ymd[6]) offset = offsetOf(ymd[6]);
  } else if (us) {
    mo = Number(us[1]);
    d = Number(us[3]);
    y = us[4]!.length === 2 ? fullYear(Number(us[4])) : Number(us[4]);
    if (us[5] !== undefined) {
      minutes = readClock(us[5]);
      if (minutes === null) return { expected: EXPECTED.us };
    }
  } else if (style === 'auto' && (named = withMonthName(s)) !== null) {
    if ('expected' in named) return named;
    [y, mo, d, minutes] = named;
  } else if ((style === 'auto' || style === 'iso') && EPOCH_MS.test(s)) {
    // An instant: its UTC reading, with offset 0 (the importer writes the zone's wall time).
    const t = new Date(Number(s));
    [y, mo, d] = [t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate()];
    minutes = t.getUTCHours() * 60 + t.getUTCMinutes();
    offset = 0;
  } else if ((style === 'auto' || style === 'excel') && SERIAL.test(s)) {
    const parts = fromSerial(Number(s));
    if (!parts) return { expected: EXPECTED.excel };
    [y, mo, d] = parts;
    minutes = s.includes('.') ? parts[3] : null;
  } else return { expected: EXPECTED[style] };
  if (!validDay(y, mo, d)) return { expected: `a real calendar day (${EXPECTED[style]})` };
  return { day: `${y}-${p2(mo)}-${p2(d)}T`, minutes, offset, times: [] };
}

const EXPECTED: Record<DateStyle, string> = {
  auto: 'a date such as 2025-05-10, 2025-05-10T13:30, 2025/05/10 1:30 PM, 5/10/2025 1:30 PM or an Excel serial date (45787.56)',
  iso: 'an ISO-8601 date such as 2025-05-10T13:30 or 2025-05-10T18:30:00Z (or year first with slashes: 2025/05/10 1:30 PM)',
  us: 'a US date such as 5/10/2025 or 05/10/25 1:30 PM',
  excel: 'an Excel serial date such as 45787 or 45787.5625',
};
