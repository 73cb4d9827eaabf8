/**
 * Facts about one page of a tile query (rows sorted by report time), and the frontier rule: after a
 * full page ending at report time R, the next `since` is localDay(R − lag − slack) − 1 day (see
 * constants.ts). A page proves the days after its own `since` up to that next `since` complete.
 */
import { addDays, dayNumber, dayStartUtc, localDayOf } from '../time/localDay';
import { CLOCK_SLACK_MS, DAY, MAX_REPORT_LAG_MS, SINCE_EXTRA_DAYS } from './constants';

/** A row as the sync sees it: identity, place, type and report instant. */
export type PageRow = { cdid: number; lat: number; lon: number; type: string; utcMs: number; zone: string };

export function nextSince(lastUtcMs: number, zone: string): string {
  return addDays(localDayOf(lastUtcMs - MAX_REPORT_LAG_MS - CLOCK_SLACK_MS, zone), -SINCE_EXTRA_DAYS);
}

/** The `since` that covers every incident reported at or after `fromUtcMs`. */
export const sinceCovering = nextSince;

export type PageFacts = {
  rows: number;
  last: PageRow;
  /** The frontier after this page (never earlier than the page's own since). */
  next: string;
  /** Whether the frontier moved: if not, a single stretch of days fills a page (the tile is stuck). */
  advanced: boolean;
  /** Days of report time the page spans (at least an hour), for density estimates. */
  spanDays: number;
  /** Days of report time the next page would fetch again. */
  overlapDays: number;
  /** Share of rows at the most common exact location. */
  topPointShare: number;
};

export function pageFacts(rows: readonly PageRow[], since: string): PageFacts {
  const last = rows[rows.length - 1];
  const first = rows[0];
  if (!last || !first) throw new Error('pageFacts needs rows');
  const candidate = nextSince(last.utcMs, last.zone);
  const advanced = dayNumber(candidate) > dayNumber(since);
  const next = advanced ? candidate : since;
  const floor = dayStartUtc(addDays(since, 1), last.zone);
  const spanDays = Math.max(1 / 24, (last.utcMs - Math.max(floor, first.utcMs)) / DAY);
  const overlapDays = Math.max(0, (last.utcMs - dayStartUtc(addDays(next, 1), last.zone)) / DAY);
  const counts = new Map<string, number>();
  let top = 0;
  for (const r of rows) {
    const k = `${r.lat},${r.lon}`;
    const n = (counts.get(k) ?? 0) + 1;
    counts.set(k, n);
    top = Math.max(top, n);
  }
  return { rows: rows.length, last, next, advanced, spanDays, overlapDays, topPointShare: top / rows.length };
}
