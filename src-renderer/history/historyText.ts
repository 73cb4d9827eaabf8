/** History's words and labels: bucket labels, axis titles, change in plain words, coverage caveats. */
import type { CompareResult, CoverageResult, Interval, SeriesResult } from '../../src-shared/incidentQueries';
import { dayRangeText, dayText, monthText } from '../../src-shared/localTime';
import { MIN_PERCENT_BASE } from '../../src-shared/percentChange';
import { count } from '../text/count';

export const INTERVAL_WORD: Record<Interval, string> = { day: 'day', week: 'week', month: 'month' };

/** The y axis: what one bar counts, with its unit. */
export const yAxisTitle = (interval: Interval): string => `Incidents per ${INTERVAL_WORD[interval]}`;

export const xAxisTitle = (interval: Interval): string =>
  interval === 'day'
    ? 'Day (local date)'
    : interval === 'week'
      ? 'Week starting Monday (local dates)'
      : 'Month';

/** A bucket's label on the x axis, in the user's locale: "4 Jul", "4 Jul" (week start), "Jul 2025". */
export function bucketLabel(start: string, interval: Interval, multiYear: boolean): string {
  if (interval === 'month') return monthText(start);
  return dayText(start, { year: multiYear });
}

/** A one-sentence summary of a series, for screen readers and the chart's caption. */
export function seriesSummary(series: SeriesResult): string {
  const buckets = series.buckets;
  if (buckets.length === 0) return 'No incidents in this range.';
  const total = buckets.reduce((sum, b) => sum + b.total, 0);
  const busiest = buckets.reduce((a, b) => (b.total > a.total ? b : a));
  const first = buckets[0]?.start ?? '';
  const last = buckets[buckets.length - 1]?.end ?? '';
  return `${count(total)} incidents from ${dayText(first)} to ${dayText(last)}, by ${INTERVAL_WORD[series.interval]}; the busiest ${INTERVAL_WORD[series.interval]} began ${dayText(busiest.start)} with ${count(busiest.total)}.`;
}

export type ChangeWords = {
  figure: string;
  /** "+12 %", or null when the earlier period is too small for a percentage. */
  percent: string | null;
  /** The two counts, said instead of a percentage: "2 then, 1,027 now: too few then for a percentage". */
  counts: string;
  direction: 'up' | 'down' | 'same';
};

export function changeWords(change: CompareResult['vsPrevious'], base: number, current: number): ChangeWords {
  const a = change.absolute;
  const direction = a > 0 ? 'up' : a < 0 ? 'down' : 'same';
  const figure = a === 0 ? 'No change' : `${a > 0 ? '+' : '−'}${count(Math.abs(a))}`;
  const percent =
    change.percent === null
      ? null
      : `${change.percent > 0 ? '+' : change.percent < 0 ? '−' : ''}${Math.abs(change.percent).toFixed(Math.abs(change.percent) < 10 ? 1 : 0)} %`;
  const counts =
    base === 0
      ? `none then, ${count(current)} now`
      : base < MIN_PERCENT_BASE
        ? `${count(base)} then, ${count(current)} now: too few then for a percentage`
        : `${count(base)} then, ${count(current)} now`;
  return { figure, percent: base < MIN_PERCENT_BASE ? null : percent, counts, direction };
}

type Period = CompareResult['current'];

/** Plain words when the archive does not hold a period completely; null when it does. */
export function coverageNote(period: Period): string | null {
  const c = period.coverage;
  if (c.status === 'full') return null;
  if (c.status === 'none') return `The archive holds none of these ${count(c.days)} days.`;
  const held = c.completeDays + c.provisionalDays;
  if (c.status === 'provisional')
    return `${count(c.provisionalDays)} of these days are recent and still being reported: the count may rise.`;
  return `The archive only covers ${count(held)} of these ${count(c.days)} days.`;
}

export const periodText = (p: Period): string => dayRangeText(p.from, p.to);

/** The coverage band in words: "612 days complete, 2 provisional, 35 missing". */
export function coverageSummary(band: CoverageResult): string {
  const { complete, saturated, provisional, missing } = band.totals;
  if (band.runs.length === 0) return 'No coverage is recorded yet.';
  const parts = [
    `${count(complete + saturated)} days complete`,
    `${count(provisional)} provisional`,
    `${count(missing)} missing`,
  ];
  const basis =
    band.basis === 'archive' ? ' (from the dates the archive holds: no sync ledger covers them)' : '';
  return `${parts.join(', ')}${basis}.`;
}
