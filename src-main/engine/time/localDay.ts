/** Calendar days (`YYYY-MM-DD`) in a zone: the day of an instant, a day's first instant, day arithmetic. */
import { fakeUtcToInstant, offsetAt } from './wallToInstant';

const DAY = 86_400_000;

/** The local calendar day of an instant in a zone. */
export function localDayOf(utcMs: number, zone: string): string {
  return new Date(utcMs + offsetAt(zone, utcMs) * 60_000).toISOString().slice(0, 10);
}

/** The first instant of a local day (midnight, or the first minute after a midnight gap). */
export function dayStartUtc(day: string, zone: string): number {
  return fakeUtcToInstant(dayNumber(day) * DAY, zone).utcMs;
}

/** Days since 1970-01-01 of `YYYY-MM-DD`. */
export function dayNumber(day: string): number {
  const ms = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(ms)) throw new Error(`Not a day: ${day}`);
  return Math.round(ms / DAY);
}

export const dayOfNumber = (n: number): string => new Date(n * DAY).toISOString().slice(0, 10);

export const addDays = (day: string, n: number): string => dayOfNumber(dayNumber(day) + n);

/** Whole days from a to b (b − a). */
export const daysBetween = (a: string, b: string): number => dayNumber(b) - dayNumber(a);

export const isDay = (text: string): boolean =>
  /^\d{4}-\d{2}-\d{2}$/.test(text) &&
  !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) &&
  dayOfNumber(dayNumber(text)) === text;
