/**
 * A period against the one before it (same length, ending the day before) and against the same
 * dates a year earlier, with the archive's coverage of each period and plain words when a change
 * cannot be trusted: a period the archive does not fully hold gives a smaller count than
 * happened, and recent days are still being reported.
 */
import { dayNumber, dayString, sameDayLastYear } from '../../../src-shared/filters';
import type { CompareResult } from '../../../src-shared/incidentQueries';
import { MIN_PERCENT_BASE, percentChange } from '../../../src-shared/percentChange';
import { countsByType } from './counts';
import { MISSING, PROVISIONAL, SATURATED, type DayStatuses } from './coverage';
import type { Resolved } from './service';

type PeriodOut = CompareResult['current'];
type Span = { from: number; to: number };

export type CompareInputs = {
  /** The filter's rows with its own date range dropped (the periods bring theirs). */
  resolved: Resolved;
  from: string;
  to: string;
  /** Day statuses over a range holding all three periods. */
  coverage: (from: number, to: number) => DayStatuses;
};

export function comparisonSpans(from: string, to: string): { current: Span; previous: Span; yearAgo: Span } {
  const a = dayNumber(from);
  const b = dayNumber(to);
  const len = b - a + 1;
  return {
    current: { from: a, to: b },
    previous: { from: a - len, to: a - 1 },
    yearAgo: { from: sameDayLastYear(a), to: sameDayLastYear(b) },
  };
}

export function comparePeriods({ resolved, from, to, coverage }: CompareInputs): CompareResult {
  const spans = comparisonSpans(from, to);
  const { snapshot, set } = resolved;
  const all = [spans.current, spans.previous, spans.yearAgo];
  const lo = Math.min(...all.map((s) => s.from));
  const hi = Math.max(...all.map((s) => s.to));
  const t = Math.max(1, snapshot.types.size);
  const byType = all.map(() => new Uint32Array(t));
  // Which periods each day of [lo, hi] belongs to (bit k: period k), then one pass over the rows.
  const membership = new Uint8Array(hi - lo + 1);
  all.forEach((s, k) => {
    for (let d = s.from; d <= s.to; d++) membership[d - lo] = (membership[d - lo] as number) | (1 << k);
  });
  const [c0, c1, c2] = byType as [Uint32Array, Uint32Array, Uint32Array];
  const rows = set.rows;
  for (let j = 0; j < rows.length; j++) {
    const row = rows[j] as number;
    const d = (snapshot.day[row] as number) - lo;
    if (d < 0 || d > hi - lo) continue;
    const m = membership[d] as number;
    const type = snapshot.type[row] as number;
    if (m & 1) c0[type] = (c0[type] as number) + 1;
    if (m & 2) c1[type] = (c1[type] as number) + 1;
    if (m & 4) c2[type] = (c2[type] as number) + 1;
  }
  const days = coverage(lo, hi);
  const period = (s: Span, k: number): PeriodOut => {
    const counts = byType[k] as Uint32Array;
    const tally = { complete: 0, provisional: 0, missing: 0 };
    for (let d = s.from; d <= s.to; d++) {
      const status = days.statuses[d - days.from];
      if (status !== undefined && status >= SATURATED) tally.complete++;
      else if (status === PROVISIONAL) tally.provisional++;
      else if (status === MISSING) tally.missing++;
    }
    const n = s.to - s.from + 1;
    const status =
      tally.complete + tally.provisional === 0
        ? 'none'
        : tally.missing > 0
          ? 'partial'
          : tally.provisional > 0
            ? 'provisional'
            : 'full';
    return {
      from: dayString(s.from),
      to: dayString(s.to),
      days: n,
      total: counts.reduce((x, c) => x + c, 0),
      byType: countsByType(snapshot, counts),
      coverage: {
        status,
        days: n,
        completeDays: tally.complete,
        provisionalDays: tally.provisional,
        missingDays: tally.missing,
        basis: days.basis,
      },
    };
  };
  const current = period(spans.current, 0);
  const previous = period(spans.previous, 1);
  const yearAgo = period(spans.yearAgo, 2);
  return {
    current,
    previous,
    yearAgo,
    vsPrevious: change(current, previous, 'the previous period'),
    vsYearAgo: change(current, yearAgo, 'the same period a year earlier'),
  };
}

function describe(p: PeriodOut, name: string): string | null {
  const c = p.coverage;
  if (c.status === 'none') return `The local archive holds none of ${name} (${p.from} to ${p.to}).`;
  if (c.status === 'partial') {
    return (
      `The local archive fully holds only ${c.completeDays + c.provisionalDays} of the ${c.days} days of ${name} ` +
      `(${p.from} to ${p.to}); its count is lower than what happened.`
    );
  }
  return null;
}

function change(current: PeriodOut, base: PeriodOut, baseName: string): CompareResult['vsPrevious'] {
  const absolute = current.total - base.total;
  const percent = percentChange(current.total, base.total);
  const notes = [describe(current, 'this period'), describe(base, baseName)].filter(
    (n): n is string => n !== null,
  );
  const comparable = notes.length === 0;
  if (comparable && current.coverage.provisionalDays > 0) {
    notes.push(
      `The last ${current.coverage.provisionalDays} day${current.coverage.provisionalDays === 1 ? ' is' : 's are'} ` +
        'still being reported; this period’s count may still rise.',
    );
  }
  if (!comparable) notes.push('The change is not a like-for-like comparison.');
  if (current.days !== base.days)
    notes.push(`The periods differ in length (${current.days} and ${base.days} days).`);
  if (base.total === 0 && comparable)
    notes.push(`No incidents in ${baseName}, so there is no percentage change.`);
  else if (percent === null && comparable)
    notes.push(
      `Only ${base.total} incident${base.total === 1 ? '' : 's'} in ${baseName} (fewer than ${MIN_PERCENT_BASE}), ` +
        'so the change is given in counts, not as a percentage.',
    );
  return { absolute, percent, comparable, note: notes.length ? notes.join(' ') : null };
}
