/**
 * The live surface's `date`: local wall time `MM/DD/YY HH:MM AM/PM`, no zone. Parsed strictly into
 * wall-clock parts; a two-digit year YY is 20YY (the API serves a rolling window of recent months).
 */
export type WallTime = {
  year: number;
  month: number; // 1..12
  day: number; // 1..31
  hour: number; // 0..23
  minute: number; // 0..59
};

const LEGACY = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})\s+(\d{1,2}):(\d{2})\s*([AaPp])\.?[Mm]\.?\s*$/;

/** The wall time of a legacy `date`, or null when the text is not one (or names no real day). */
export function parseLegacyDate(text: string): WallTime | null {
  const m = LEGACY.exec(text);
  if (!m) return null;
  const month = Number(m[1]);
  const day = Number(m[2]);
  const yy = Number(m[3]);
  const year = (m[3] ?? '').length === 2 ? 2000 + yy : yy;
  const hour12 = Number(m[4]);
  const minute = Number(m[5]);
  const pm = (m[6] ?? '').toUpperCase() === 'P';
  if (month < 1 || month > 12 || hour12 < 1 || hour12 > 12 || minute > 59) return null;
  if (day < 1 || day > daysInMonth(year, month)) return null;
  const hour = (hour12 % 12) + (pm ? 12 : 0);
  return { year, month, day, hour, minute };
}

export function daysInMonth(year: number, month: number): number {
  return new Date(utcMs(year, month, 0)).getUTCDate();
}

/**
 * Date.UTC for every year: Date.UTC reads a year 0–99 as 1900–1999, which would silently move a
 * wall time written 0050-01-02 by nineteen centuries; such a year is kept as written (proleptic
 * Gregorian, as Date.parse reads ISO-8601).
 */
export function utcMs(year: number, monthIndex: number, day: number, hour = 0, minute = 0): number {
  if (year < 0 || year > 99) return Date.UTC(year, monthIndex, day, hour, minute);
  const d = new Date(0);
  d.setUTCFullYear(year, monthIndex, day);
  d.setUTCHours(hour, minute, 0, 0);
  return d.getTime();
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `YYYY-MM-DD` of a wall time. */
export const wallDay = (w: WallTime): string => `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;

/** `YYYY-MM-DDTHH:MM`, the form stored as occurred_local. */
export const wallIso = (w: WallTime): string => `${wallDay(w)}T${pad(w.hour)}:${pad(w.minute)}`;

/** The wall time read as if it were UTC (a "fake-UTC" epoch), for offset arithmetic. */
export const wallAsUtcMs = (w: WallTime): number => utcMs(w.year, w.month - 1, w.day, w.hour, w.minute);

/** 0 = Sunday .. 6 = Saturday. */
export const wallWeekday = (w: WallTime): number => new Date(wallAsUtcMs(w)).getUTCDay();

/** The legacy text of a wall time (what the API would print), e.g. for tests and fixtures. */
export function formatLegacyDate(w: WallTime): string {
  const h12 = w.hour % 12 === 0 ? 12 : w.hour % 12;
  return `${pad(w.month)}/${pad(w.day)}/${pad(w.year % 100)} ${pad(h12)}:${pad(w.minute)} ${w.hour < 12 ? 'AM' : 'PM'}`;
}
