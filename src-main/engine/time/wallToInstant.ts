/**
 * A local wall time in a zone → one instant, with DST made explicit:
 * - ambiguous (the repeated hour when clocks fall back): we take the EARLIER instant, the first pass
 *   through that hour (daylight time). The API gives no offset, so nothing better is knowable; the
 *   row is flagged 'ambiguous' so analyses can treat it with care.
 * - nonexistent (the skipped hour when clocks spring forward): we shift forward by the gap, i.e. read
 *   the wall time with the offset in force before the jump (02:30 EST → 03:30 EDT), and flag it
 *   'nonexistent'. The stored local wall time stays as the API printed it.
 */
import { IANAZone } from 'luxon';
import { wallAsUtcMs, type WallTime } from './legacyDate';

export type TimeFlag = 'ambiguous' | 'nonexistent';
export type Instant = { utcMs: number; flag: TimeFlag | null };

const MINUTE = 60_000;
const HOUR = 3_600_000;
const zones = new Map<string, IANAZone>();

export function ianaZone(name: string): IANAZone {
  let z = zones.get(name);
  if (!z) {
    z = IANAZone.create(name);
    if (!z.isValid) throw new Error(`Unknown time zone ${name}`);
    zones.set(name, z);
  }
  return z;
}

/** Offset of the zone from UTC in minutes at an instant (e.g. -300 for EST). */
export const offsetAt = (zone: string, utcMs: number): number => ianaZone(zone).offset(utcMs);

export function wallToInstant(wall: WallTime, zone: string): Instant {
  return fakeUtcToInstant(wallAsUtcMs(wall), zone);
}

/** Same, for a wall time given as a fake-UTC epoch (wall clock read as if it were UTC). */
export function fakeUtcToInstant(local: number, zone: string): Instant {
  const z = ianaZone(zone);
  // Every offset in force within a day of this wall time: before and after any transition nearby.
  const before = z.offset(local - 24 * HOUR);
  const after = z.offset(local + 24 * HOUR);
  const candidates = [...new Set([before, after])]
    .map((off) => local - off * MINUTE)
    .filter((t) => z.offset(t) * MINUTE === local - t)
    .sort((a, b) => a - b);
  const first = candidates[0];
  if (first !== undefined) return { utcMs: first, flag: candidates.length > 1 ? 'ambiguous' : null };
  // In the gap: read with the offset before the jump, which lands the same distance past it.
  return { utcMs: local - before * MINUTE, flag: 'nonexistent' };
}

/** One clock change: the offset (minutes) before it, the offset from it on, and its instant. */
export type ClockChange = { before: number; after: number; at: number };

/**
 * The same rule as `fakeUtcToInstant`, by arithmetic, for a wall time whose day (±25 hours) holds
 * exactly one clock change (`clockChangeNear`): no zone lookup per wall time.
 */
export function instantAcross(local: number, c: ClockChange): Instant {
  const early = local - c.before * MINUTE; // valid when it falls before the change
  const late = local - c.after * MINUTE; // valid when it falls on or after the change
  const earlyOk = early < c.at;
  const lateOk = late >= c.at;
  if (earlyOk && lateOk)
    return early < late ? { utcMs: early, flag: 'ambiguous' } : { utcMs: late, flag: 'ambiguous' };
  if (earlyOk) return { utcMs: early, flag: null };
  if (lateOk) return { utcMs: late, flag: null };
  return { utcMs: early, flag: 'nonexistent' };
}

const STEP = 15 * MINUTE;

/**
 * The one clock change between `from` and `to` (instants), or null when there is none or more
 * than one (offsets read every 15 minutes, the change's instant then found to the millisecond).
 */
export function clockChangeNear(zone: string, from: number, to: number): ClockChange | null {
  const z = ianaZone(zone);
  const before = z.offset(from);
  let changed = -1;
  let prev = before;
  for (let t = from + STEP; t < to + STEP; t += STEP) {
    const off = z.offset(Math.min(t, to));
    if (off !== prev) {
      if (changed >= 0) return null;
      changed = Math.min(t, to);
      prev = off;
    }
  }
  if (changed < 0) return null;
  let lo = changed - STEP; // offset `before` here
  let hi = changed; // offset `after` here
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (z.offset(mid) === before) lo = mid;
    else hi = mid;
  }
  return { before, after: prev, at: hi };
}
