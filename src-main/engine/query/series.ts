/**
 * Counts by day, week (Monday first) or month, split by type, over the filter's date range or,
 * when it is open, the whole archive. Empty buckets are included so charts show gaps as zeros;
 * a bucket reaching outside the range is marked partial.
 */
import { dayNumber, dayString } from '../../../src-shared/filters';
import type { Interval, SeriesResult } from '../../../src-shared/incidentQueries';
import { archiveSpan } from './coverage';
import type { Resolved } from './service';

/** The first day of the bucket holding day `d`. */
export function bucketStart(d: number, interval: Interval): number {
  if (interval === 'day') return d;
  if (interval === 'week') return d - ((((d + 3) % 7) + 7) % 7); // day 0 (1970-01-01) was a Thursday
  return dayNumber(`${dayString(d).slice(0, 7)}-01`);
}

function nextBucket(start: number, interval: Interval): number {
  if (interval === 'day') return start + 1;
  if (interval === 'week') return start + 7;
  const [y, m] = dayString(start).split('-').map(Number) as [number, number];
  return Date.UTC(y, m, 1) / 86_400_000;
}

/** At most this many buckets (a century of months; ~27 years of days). */
const MAX_BUCKETS = 10_000;

export function historySeries({ snapshot, set, range }: Resolved, interval: Interval): SeriesResult {
  const span = range.from && range.to ? null : archiveSpan(snapshot);
  const lo = range.from ? dayNumber(range.from) : span?.first;
  const hi = range.to ? dayNumber(range.to) : span?.last;
  const types = snapshot.types.values.slice();
  if (lo === undefined || hi === undefined || lo > hi) return { interval, types, buckets: [], range };
  // Bucket of every day in [lo, hi], then one pass over the rows.
  const starts: number[] = [];
  const bucketOfDay = new Int32Array(hi - lo + 1).fill(-1);
  for (
    let s = bucketStart(lo, interval);
    s <= hi && starts.length < MAX_BUCKETS;
    s = nextBucket(s, interval)
  ) {
    const next = nextBucket(s, interval);
    for (let d = Math.max(s, lo); d < Math.min(next, hi + 1); d++) bucketOfDay[d - lo] = starts.length;
    starts.push(s);
  }
  const t = types.length;
  const counts = new Uint32Array(starts.length * t);
  const rows = set.rows;
  for (let j = 0; j < rows.length; j++) {
    const row = rows[j] as number;
    const d = (snapshot.day[row] as number) - lo;
    const b = d >= 0 && d < bucketOfDay.length ? (bucketOfDay[d] as number) : -1;
    if (b < 0) continue;
    const cell = b * t + (snapshot.type[row] as number);
    counts[cell] = (counts[cell] as number) + 1;
  }
  const buckets = starts.map((start, b) => {
    const end = nextBucket(start, interval) - 1;
    const row = Array.from(counts.subarray(b * t, b * t + t));
    return {
      start: dayString(start),
      end: dayString(end),
      total: row.reduce((a, c) => a + c, 0),
      counts: row,
      partial: start < lo || end > hi,
    };
  });
  return { interval, types, buckets, range: { from: dayString(lo), to: dayString(hi) } };
}
