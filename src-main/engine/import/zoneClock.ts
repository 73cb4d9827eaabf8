/**
 * Local wall time + IANA zone → instant, for a million rows a second, by the engine's time module's
 * DST rule (time/wallToInstant.ts: flags, the gap, the repeated hour). Per zone and day, worked out
 * once: the offset in force all day (one subtraction a row), or the day's one clock change (a row is
 * then read by arithmetic, `instantAcross`); only a day with more than one change asks the zone for
 * every wall time (`fakeUtcToInstant`).
 */
import {
  clockChangeNear,
  fakeUtcToInstant,
  ianaZone,
  instantAcross,
  offsetAt,
  type ClockChange,
  type Instant,
} from '../time/wallToInstant';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/**
 * Per zone: day number → the offset (minutes) in force all around that day, the day's one clock
 * change, or null (more than one).
 */
const zones = new Map<string, Map<number, number | ClockChange | null>>();
const valid = new Map<string, boolean>();

/** Whether `zone` is an IANA zone this runtime knows. */
export function isKnownZone(zone: string): boolean {
  let ok = valid.get(zone);
  if (ok === undefined) {
    try {
      ianaZone(zone);
      ok = true;
    } catch {
      ok = false;
    }
    if (valid.size < 10_000) valid.set(zone, ok);
  }
  return ok;
}

/** The instant of a wall time given as a fake-UTC epoch (the wall clock read as if it were UTC). */
export function wallToUtc(wallMs: number, zone: string): Instant {
  let days = zones.get(zone);
  if (!days) zones.set(zone, (days = new Map()));
  const day = Math.floor(wallMs / DAY);
  let off = days.get(day);
  if (off === undefined) {
    // The instant of a wall time on this day lies within 14 hours (the largest offset) of the day:
    // the same offset at both ends of that span means no clock change can touch the day.
    const before = offsetAt(zone, day * DAY - 15 * HOUR);
    const after = offsetAt(zone, (day + 1) * DAY + 15 * HOUR);
    // Otherwise the change, looked for over ±25 hours: every instant fakeUtcToInstant would consult.
    off =
      before === after ? before : clockChangeNear(zone, day * DAY - 25 * HOUR, (day + 1) * DAY + 25 * HOUR);
    if (days.size > 50_000) days.clear();
    days.set(day, off);
  }
  if (typeof off === 'number') return { utcMs: wallMs - off * 60_000, flag: null };
  if (off === null) return fakeUtcToInstant(wallMs, zone);
  return instantAcross(wallMs, off);
}
