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
