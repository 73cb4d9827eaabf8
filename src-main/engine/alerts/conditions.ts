/**
 * The four conditions as pure functions over incidents sorted by (occurred instant, cdid). The live
 * evaluation (evaluate.ts) and "test a rule against the archive" (ruleTest.ts) both call these, so a
 * rule fires in the archive test exactly where it would have fired live, had each incident arrived
 * in the order it occurred.
 *
 * "The archive at incident j" is every incident ordered at or before j: a late report is judged
 * against what had occurred by its own time, not against what occurred after it.
 */
import { dayNumber } from '../../../src-shared/filters';
import { milesBetween } from '../../../src-shared/geo';
import { SPIKE } from '../../../src-shared/alerts';
import { spikeTest, type SpikeResult } from './spikeTest';

export const DAY_MS = 86_400_000;

export type AlertIncident = {
  cdid: number;
  type: string;
  lat: number;
  lon: number;
  utcMs: number;
  /** Local day of the incident, YYYY-MM-DD (its own zone). */
  localDay: string;
};

export const byTime = (a: AlertIncident, b: AlertIncident): number => a.utcMs - b.utcMs || a.cdid - b.cdid;

/** The index of the first incident with utcMs > t (sorted input). */
function firstAfter(sorted: readonly AlertIncident[], t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as AlertIncident).utcMs > t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Incidents in (t − days, t] ordered at or before sorted[i], counting sorted[i]. */
export function countInWindow(sorted: readonly AlertIncident[], i: number, days: number): number {
  const t = (sorted[i] as AlertIncident).utcMs;
  return i - firstAfter(sorted, t - days * DAY_MS) + 1;
}

/**
 * Threshold: sorted[i] brings the rolling count to exactly `count`. Each incident adds one, so the
 * count was `count − 1` just before it: the rule fires again only after the count dropped below.
 */
export function crossesThreshold(
  sorted: readonly AlertIncident[],
  i: number,
  count: number,
  days: number,
): boolean {
  return countInWindow(sorted, i, days) === count;
}

/** Spike at sorted[i]: its last 7 days against the 56 days before, the archive as of i. */
export function spikeAt(sorted: readonly AlertIncident[], i: number): SpikeResult {
  const t = (sorted[i] as AlertIncident).utcMs;
  const recentStart = firstAfter(sorted, t - SPIKE.recentDays * DAY_MS);
  const baselineStart = firstAfter(sorted, t - (SPIKE.recentDays + SPIKE.baselineDays) * DAY_MS);
  return spikeTest(i - recentStart + 1, recentStart - baselineStart);
}

/** The Monday week of a local day (1970-01-05 was a Monday): spikes fire once per rule, area and week. */
export function mondayWeek(localDay: string): number {
  return Math.floor((dayNumber(localDay) - 4) / 7);
}

/**
 * Near-repeat: the incidents of `pool` of the same type (case-insensitive), ordered before `x`,
 * that occurred at most `days` before it, within `miles` of it (great-circle).
 */
export function nearRepeats(
  x: AlertIncident,
  pool: readonly AlertIncident[],
  miles: number,
  days: number,
): AlertIncident[] {
  const type = x.type.toLowerCase();
  const from = x.utcMs - days * DAY_MS;
  return pool.filter(
    (p) =>
      p.cdid !== x.cdid &&
      byTime(p, x) < 0 &&
      p.utcMs >= from &&
      p.type.toLowerCase() === type &&
      milesBetween(x.lat, x.lon, p.lat, p.lon) <= miles,
  );
}
