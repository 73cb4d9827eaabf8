/**
 * The one date and time formatter of Blotter (DESIGN.md, "Local time"). Every date a user reads
 * comes from here, so the app, the History view and the printed report speak one format family:
 * the user's locale (Intl.DateTimeFormat: its month names, field order and clock), and for a
 * moment in time, its zone's abbreviation ("CDT").
 *
 * - An incident's time is in the incident's own zone (the IANA zone at its lat/lon): its local
 *   wall time as the API gave it, plus the abbreviation in force at its instant.
 * - A moment of Blotter's own (created, last synced) is in this computer's zone, with its abbreviation.
 * - A calendar day ('YYYY-MM-DD': local days, date ranges) has no zone: it is printed as a day.
 *
 * `locale` is for tests and hosts that know better; by default it is the user's (the runtime's) locale.
 * Pure: no Node, DOM or Electron.
 */

export type TimeOptions = { locale?: string };

const cache = new Map<string, Intl.DateTimeFormat | null>();

function formatter(
  locale: string | undefined,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat | null {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  if (!cache.has(key)) {
    let format: Intl.DateTimeFormat | null;
    try {
      format = new Intl.DateTimeFormat(locale, options);
    } catch {
      format = null; // an unknown zone or locale
    }
    cache.set(key, format);
  }
  return cache.get(key) ?? null;
}

const DAY: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' };
const DAY_NO_YEAR: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', timeZone: 'UTC' };
const MONTH: Intl.DateTimeFormatOptions = { month: 'short', year: 'numeric', timeZone: 'UTC' };
/**
 * Hours and minutes as the locale writes them: a 12-hour clock without a leading zero ("1:58 AM",
 * en-US), a 24-hour clock with one ("01:58", en-GB).
 */
function timeFields(locale: string | undefined): Intl.DateTimeFormatOptions {
  const cycle = formatter(locale, { hour: 'numeric' })?.resolvedOptions().hourCycle;
  return { hour: cycle === 'h11' || cycle === 'h12' ? 'numeric' : '2-digit', minute: '2-digit' };
}

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const WALL_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/;

/** The zone's short name at that instant ("MDT", "CST"; "GMT+2" where it has none), or the zone's id. */
export function zoneAbbreviation(zone: string, utcMs: number): string {
  const format = formatter('en-US', { timeZone: zone, timeZoneName: 'short' });
  if (!format || !Number.isFinite(utcMs)) return zone;
  return format.formatToParts(new Date(utcMs)).find((p) => p.type === 'timeZoneName')?.value ?? zone;
}

/** This computer's zone (IANA id). */
export function computerZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** A calendar day 'YYYY-MM-DD' in the user's locale ("4 Jul 2026", "Jul 4, 2026"). */
export function dayText(
  day: string,
  options: TimeOptions & { year?: boolean; weekday?: boolean } = {},
): string {
  const m = DAY_RE.exec(day);
  if (!m) return day;
  const base = options.year === false ? DAY_NO_YEAR : DAY;
  const format = formatter(options.locale, options.weekday ? { ...base, weekday: 'short' } : base);
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return format ? format.format(new Date(ms)) : day;
}

/** A month 'YYYY-MM…' in the user's locale ("Jul 2026"). */
export function monthText(month: string, options: TimeOptions = {}): string {
  const m = /^(\d{4})-(\d{2})/.exec(month);
  if (!m) return month;
  const format = formatter(options.locale, MONTH);
  return format ? format.format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1))) : month;
}

/** Two calendar days as a range: "25 Aug – 22 Nov 2026" (the year once when both share it). */
export function dayRangeText(from: string, to: string, options: TimeOptions = {}): string {
  if (from === to) return dayText(from, options);
  const sameYear = from.slice(0, 4) === to.slice(0, 4);
  return `${dayText(from, { ...options, year: !sameYear })} – ${dayText(to, options)}`;
}

/** A local wall time 'YYYY-MM-DDTHH:MM' as it reads on the clock, without a zone: "4 Jul 2026, 04:05". */
export function wallClockText(
  occurredLocal: string,
  options: TimeOptions & { weekday?: boolean } = {},
): string {
  const m = WALL_RE.exec(occurredLocal);
  if (!m) return occurredLocal.replace('T', ' ');
  const [y, mo, d, hh, mm] = m.slice(1).map(Number) as [number, number, number, number, number];
  const fields: Intl.DateTimeFormatOptions = {
    ...DAY,
    ...timeFields(options.locale),
    ...(options.weekday ? { weekday: 'short' } : {}),
  };
  const format = formatter(options.locale, fields);
  return format ? format.format(new Date(Date.UTC(y, mo - 1, d, hh, mm))) : occurredLocal.replace('T', ' ');
}

/**
 * An incident's local wall time 'YYYY-MM-DDTHH:MM' in its zone, with the abbreviation at its
 * instant: "4 Jul 2026, 04:05 MDT". The wall time is printed as the API gave it (a daylight-saving
 * gap or overlap does not move it); the abbreviation comes from the instant.
 */
export function wallTimeText(
  occurredLocal: string,
  zone: string,
  utcMs: number,
  options: TimeOptions & { weekday?: boolean } = {},
): string {
  return `${wallClockText(occurredLocal, options)} ${zoneAbbreviation(zone, utcMs)}`;
}

/**
 * An instant (epoch ms) in a zone, with its abbreviation: "10 May 2025, 22:00 CDT". Without a zone,
 * in this computer's zone (Blotter's own moments: created, last synced, first seen).
 */
export function instantText(
  utcMs: number,
  zone?: string,
  options: TimeOptions & { weekday?: boolean } = {},
): string {
  if (!Number.isFinite(utcMs)) return '—';
  const where = zone ?? computerZone();
  const fields: Intl.DateTimeFormatOptions = {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    ...timeFields(options.locale),
    timeZone: where,
    ...(options.weekday ? { weekday: 'short' } : {}),
  };
  const format =
    formatter(options.locale, fields) ?? formatter(options.locale, { ...fields, timeZone: 'UTC' });
  const text = format ? format.format(new Date(utcMs)) : new Date(utcMs).toISOString();
  return `${text} ${zoneAbbreviation(format?.resolvedOptions().timeZone ?? 'UTC', utcMs)}`;
}
