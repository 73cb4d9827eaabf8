import { describe, expect, it } from 'vitest';
import { dayNumber } from '../../../src-shared/filters';
import { COMPLETE, MISSING, PROVISIONAL } from '../query/ledger';
import { compStat, compStatRange, periodSpans, todayIn, type CompStatAreaResult } from './compstat';
import { AnalysisRefused } from './points';

const d = dayNumber;
const show = (s: { from: number; to: number }) =>
  [s.from, s.to].map((x) => new Date(x * 864e5).toISOString().slice(0, 10));

describe('CompStat periods', () => {
  it('reads "today" in the area\'s zone', () => {
    const now = Date.parse('2024-03-10T05:30:00Z');
    expect(todayIn('America/Chicago', now)).toBe(d('2024-03-09'));
    expect(todayIn('Europe/Berlin', now)).toBe(d('2024-03-10'));
  });

  it('starts weeks on Monday; compares with the days just before and 364 days earlier, the year to date with the same dates', () => {
    const s = periodSpans(d('2024-03-14')); // a Thursday
    expect(show(s.week_to_date.current)).toEqual(['2024-03-11', '2024-03-14']);
    expect(show(s.week_to_date.prior!)).toEqual(['2024-03-04', '2024-03-07']); // the same weekdays, a week before
    expect(show(s.week_to_date.yearAgo)).toEqual(['2023-03-13', '2023-03-16']); // Monday to Thursday
    expect(show(s.last_7_days.current)).toEqual(['2024-03-08', '2024-03-14']);
    expect(show(s.last_7_days.prior!)).toEqual(['2024-03-01', '2024-03-07']);
    expect(show(s.last_28_days.current)).toEqual(['2024-02-16', '2024-03-14']);
    expect(show(s.last_28_days.prior!)).toEqual(['2024-01-19', '2024-02-15']);
    expect(show(s.last_28_days.yearAgo)).toEqual(['2023-02-17', '2023-03-16']);
    expect(show(s.year_to_date.current)).toEqual(['2024-01-01', '2024-03-14']);
    expect(s.year_to_date.prior).toBeNull();
    expect(show(s.year_to_date.yearAgo)).toEqual(['2023-01-01', '2023-03-14']);
    expect(show(periodSpans(d('2024-02-29')).year_to_date.yearAgo)).toEqual(['2023-01-01', '2023-02-28']);
    expect(show(periodSpans(d('2024-03-11')).week_to_date.current)).toEqual(['2024-03-11', '2024-03-11']);
    expect(show(periodSpans(d('2024-03-17')).week_to_date.current)).toEqual(['2024-03-11', '2024-03-17']); // Sunday
    // Across the year's end: the week to date of Friday 3 January 2025 began Monday 30 December.
    const jan = periodSpans(d('2025-01-03'));
    expect(show(jan.week_to_date.current)).toEqual(['2024-12-30', '2025-01-03']);
    expect(show(jan.year_to_date.current)).toEqual(['2025-01-01', '2025-01-03']);
  });
});

/** Incidents on given days (type ids into TYPES). */
function incidents(spec: [day: string, type: number, times: number][]) {
  const days: number[] = [];
  const types: number[] = [];
  for (const [day, type, times] of spec)
    for (let k = 0; k < times; k++) {
      days.push(d(day));
      types.push(type);
    }
  return { day: Int32Array.from(days), type: Uint16Array.from(types), rows: days.map((_, i) => i) };
}

const TYPES = ['Burglary', 'Theft', 'Assault', 'Arrest', 'Homicide'];

describe('CompStat table', () => {
  const data = incidents([
    ['2024-03-12', 0, 12], // this week, last 7, last 28, YTD
    ['2024-03-05', 0, 10], // the week before (Tuesday), the 7 days before
    ['2023-03-14', 0, 10], // 364 days before 2024-03-12: the week a year earlier
    ['2024-02-20', 1, 3], // last 28 and YTD only
    ['2023-02-21', 1, 2],
    ['2023-03-15', 1, 4], // a year earlier's week (Wednesday), after last year's YTD
    ['2024-01-05', 0, 5],
    ['2024-03-13', 2, 2], // violent
    ['2024-03-13', 3, 1], // an arrest
    ['2024-03-13', 4, 1], // a type outside the standard list: a row of its own
  ]);
  const input = {
    day: data.day,
    type: data.type,
    typeNames: TYPES,
    areas: [{ id: 1, name: 'Downtown', zone: 'America/Chicago', rows: data.rows }],
    now: Date.parse('2024-03-14T18:00:00Z'),
  };
  const row = (area: CompStatAreaResult, label: string) => area.rows.find((r) => r.label === label)!;

  it('counts groups, types and the total per period, with change from the days before and a year earlier', () => {
    const [area] = compStat(input).areas;
    expect(area!.today).toBe('2024-03-14');
    expect(area!.rows.map((r) => r.label)).toEqual([
      'Violent',
      'Shooting',
      'Assault',
      'Robbery',
      'Property',
      'Burglary',
      'Theft',
      'Arson',
      'Vandalism',
      'Arrest',
      'Other',
      'Homicide',
      'Total',
    ]);
    const burglary = row(area!, 'Burglary').cells;
    expect(burglary[0]).toEqual({
      current: 12,
      prior: { base: 10, change: 2, percent: 20 },
      yearAgo: { base: 10, change: 2, percent: 20 },
    });
    expect(burglary[3]).toEqual({
      current: 27,
      prior: null,
      yearAgo: { base: 10, change: 17, percent: 170 },
    });
    const theft = row(area!, 'Theft').cells;
    expect(theft[0]!.yearAgo).toEqual({ base: 4, change: -4, percent: null }); // base 4 < 10
    expect(theft[2]).toEqual({
      current: 3,
      prior: { base: 0, change: 3, percent: null },
      yearAgo: { base: 6, change: -3, percent: null },
    });
    expect(row(area!, 'Violent').cells[0]!.current).toBe(2);
    expect(row(area!, 'Property').cells[2]!.current).toBe(22 + 3);
    expect(row(area!, 'Arrest').cells[0]!.current).toBe(1);
    expect(row(area!, 'Homicide').cells[0]!.current).toBe(1);
    const total = row(area!, 'Total').cells;
    expect(total[2]).toEqual({
      current: 29,
      prior: { base: 0, change: 29, percent: null },
      yearAgo: { base: 16, change: 13, percent: 81.3 },
    });
    expect(area!.notes).toEqual([]);
  });

  it('ends the periods on an as-of day when given', () => {
    const r = compStat({ ...input, asOf: '2024-03-12' });
    expect(r.areas[0]!.today).toBe('2024-03-12');
    expect(r.areas[0]!.periods[0]!.current).toMatchObject({ from: '2024-03-11', to: '2024-03-12' });
    expect(r.parameters.as_of).toBe('2024-03-12');
  });

  it('leaves out a comparison the archive cannot make — no "vs 0" — and says so once in the notes', () => {
    // A 90-day archive: nothing a year earlier, and the last 28 days' 28 days before only in part.
    const range = compStatRange(d('2024-03-14'));
    const statuses = new Uint8Array(range.to - range.from + 1);
    for (let day = range.from; day <= range.to; day++)
      statuses[day - range.from] =
        day < d('2024-01-25') ? MISSING : day > d('2024-03-11') ? PROVISIONAL : COMPLETE;
    const coverage = { basis: 'ledger' as const, from: range.from, statuses };
    const [area] = compStat({ ...input, areas: [{ ...input.areas[0]!, coverage }] }).areas;
    const [wtd, last7, last28, ytd] = area!.periods;
    expect(wtd!.current.coverage).toBe('provisional');
    expect(wtd!.prior).toMatchObject({ coverage: 'full', compared: true });
    expect(last7!.prior!.compared).toBe(true);
    expect(last28!.prior).toMatchObject({ coverage: 'partial', held: 22, compared: false });
    expect(ytd!.current).toMatchObject({ coverage: 'partial', held: 50 });
    expect(area!.periods.map((p) => p.yearAgo.compared)).toEqual([false, false, false, false]);
    const burglary = row(area!, 'Burglary').cells;
    expect(burglary[0]).toEqual({ current: 12, prior: { base: 10, change: 2, percent: 20 }, yearAgo: null });
    expect(burglary[2]).toEqual({ current: 12 + 10, prior: null, yearAgo: null });
    expect(burglary[3]).toEqual({ current: 27, prior: null, yearAgo: null });
    expect(area!.notes).toEqual([
      'Counts are short where the archive lacks days, and not compared: year to date (50 of 74 days held).',
      'No comparison with the days just before for last 28 days: the archive does not hold all of them.',
      'No comparison with a year earlier for week to date, last 7 days and last 28 days: the archive does not hold all of those days (from 2023-02-17).',
      'Recent days are still being reported; their counts may rise.',
    ]);
  });

  it('refuses fewer than 30 incidents', () => {
    const few = incidents([['2024-03-12', 0, 29]]);
    expect(() => compStat({ ...input, ...few, areas: [{ ...input.areas[0]!, rows: few.rows }] })).toThrow(
      AnalysisRefused,
    );
  });
});
