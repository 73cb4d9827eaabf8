/**
 * The coverage strip of an area: runs of days (complete, saturated, provisional, missing) as segments whose
 * widths follow their number of days, each with a label for screen readers and tooltips. Pure.
 */
import { dayNumber } from '../../src-shared/filters';
import type { CoverageResult, CoverageStatus } from '../../src-shared/incidentQueries';
import { count } from '../text/count';
import { dayText } from '../filters/rangeText';

export type Segment = {
  from: string;
  to: string;
  status: CoverageStatus;
  days: number;
  percent: number;
  label: string;
};

export const STATUS_WORDS: Record<CoverageStatus, string> = {
  complete: 'complete',
  saturated: 'complete (dense: finished by splitting)',
  provisional: 'provisional (recent days, still being reported)',
  missing: 'missing (not synced)',
};

const spanText = (from: string, to: string): string =>
  from === to ? dayText(from) : `${dayText(from)} – ${dayText(to)}`;

export function coverageSegments(result: CoverageResult): Segment[] {
  const days = result.runs.map((r) => Math.max(1, dayNumber(r.to) - dayNumber(r.from) + 1));
  const total = days.reduce((a, b) => a + b, 0);
  return result.runs.map((run, i) => {
    const n = days[i] ?? 1;
    return {
      from: run.from,
      to: run.to,
      status: run.status,
      days: n,
      percent: total > 0 ? (n / total) * 100 : 0,
      label: `${spanText(run.from, run.to)}: ${STATUS_WORDS[run.status]}, ${count(n)} ${n === 1 ? 'day' : 'days'}`,
    };
  });
}

/** "365 days complete, 2 provisional, 1 missing" (statuses with no days left out). */
export function coverageSummary(result: CoverageResult): string {
  const { complete, saturated, provisional, missing } = result.totals;
  if (complete + saturated + provisional + missing === 0) return 'Nothing synced yet';
  const parts = [
    complete ? `${count(complete)} ${complete === 1 ? 'day' : 'days'} complete` : null,
    saturated ? `${count(saturated)} complete by splitting dense days` : null,
    provisional ? `${count(provisional)} provisional` : null,
    missing ? `${count(missing)} missing` : null,
  ];
  return parts.filter(Boolean).join(', ');
}
