import { describe, expect, it } from 'vitest';
import { dayNumber } from '../../../src-shared/filters';
import { COMPLETE, MISSING, PROVISIONAL } from '../query/ledger';
import { compStat, compStatRange, periodSpans, todayIn } from './compstat';
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

  it('starts weeks on Monday, compares with 364 days earlier, and the year to date with the same dates', () => {
    const s = periodSpans(d('2024-03-14')); // a Thursday
    expect(show(s.week_to_date.current)).toEqual(['2024-03-11', '2024-03-14']);
    expect(show(s.week_to_date.previous)).toEqual(['2023-03-13', '2023-03-16']); // Monday to Thursday
    expect(show(s.last_7_days.current)).toEqual(['2024-03-08', '2024-03-14']);
    expect(show(s.last_28_days.current)).toEqual(['2024-02-16', '2024-03-14']);
    expect(show(s.last_28_days.previous)).toEqual(['2023-02-17', '2023-03-16']);
    expect(show(s.year_to_date.current)).toEqual(['2024-01-01', '2024-03-14']);
    expect(show(s.year_to_date.previous)).toEqual(['2023-01-01', '2023-03-14']);
    expect(show(periodSpans(d('2024-02-29')).year_to_date.previous)).toEqual(['2023-01-01', '2023-02-28']);
    expect(show(periodSpans(d('2024-03-11')).week_to_date.current)).toEqual(['2024-03-11', '2024-03-11']);
    expect(show(periodSpans(d('2024-03-17')).week_to_date.current)).toEqual(['2024-03-11', '2024-03-17']); // Sunday
  });
});

/** Incidents of two types on given days (type 0 = Burglary, 1 = Theft). */
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

describe('CompStat table', () => {
  const data = incidents([
    ['2024-03-12', 0, 12], // this week, last 7, last 28, YTD
    ['2023-03-14', 0, 10], // 364 days before 2024-03-12: the week a year earlier
    ['2024-02-20', 1, 3], // last 28 and YTD only
    ['2023-02-21', 1, 2],
    ['2023-03-15', 1, 4], // a year earlier in YTD? no: after 2023-03-14
    ['2024-01-05', 0, 5],
  ]);
  const input = {
    day: data.day,
    type: data.type,
    typeNames: ['Burglary', 'Theft'],
    areas: [{ id: 1, name: 'Downtown', zone: 'America/Chicago', rows: data.rows }],
    now: Date.parse('2024-03-14T18:00:00Z'),
  };

  it('counts each type per period with differences, and percent only at a base of 10 or more', () => {
    const [area] = compStat(input).areas;
    expect(area!.today).toBe('2024-03-14');
    const burglary = area!.rows.find((r) => r.type === 'Burglary')!.cells;
    expect(burglary[0]).toEqual({ current: 12, previous: 10, difference: 2, percent: 20 });
    expect(burglary[3]).toEqual({ current: 17, previous: 10, difference: 7, percent: 70 });
    const theft = area!.rows.find((r) => r.type === 'Theft')!.cells;
    expect(theft[0]).toEqual({ current: 0, previous: 4, difference: -4, percent: null });
    expect(theft[2]).toEqual({ current: 3, previous: 6, difference: -3, percent: null }); // base 6 < 10
    expect(theft[3]).toEqual({ current: 3, previous: 2, difference: 1, percent: null });
    const all = area!.rows.at(-1)!;
    expect(all.type).toBe('All types');
    expect(all.cells[2]).toEqual({ current: 15, previous: 16, difference: -1, percent: -6.2 });
    expect(area!.periods.map((p) => p.current.coverage)).toEqual([
      'unknown',
      'unknown',
      'unknown',
      'unknown',
    ]);
  });

  it('ends the periods on an as-of day when given', () => {
    const r = compStat({ ...input, asOf: '2024-03-12' });
    expect(r.areas[0]!.today).toBe('2024-03-12');
    expect(r.areas[0]!.periods[0]!.current).toMatchObject({ from: '2024-03-11', to: '2024-03-12' });
    expect(r.parameters.as_of).toBe('2024-03-12');
  });

  it('says where the archive does not hold both periods, and when recent days are provisional', () => {
    const range = compStatRange(d('2024-03-14'));
    const statuses = new Uint8Array(range.to - range.from + 1);
    for (let day = range.from; day <= range.to; day++)
      statuses[day - range.from] =
        day < d('2023-03-01') ? MISSING : day > d('2024-03-11') ? PROVISIONAL : COMPLETE;
    const coverage = { basis: 'ledger' as const, from: range.from, statuses };
    const [area] = compStat({ ...input, areas: [{ ...input.areas[0]!, coverage }] }).areas;
    const [wtd, , last28, ytd] = area!.periods;
    expect(wtd!.current.coverage).toBe('provisional');
    expect(wtd!.previous.coverage).toBe('full');
    expect(wtd!.caveat).toMatch(/still being reported/);
    expect(last28!.previous.coverage).toBe('partial');
    expect(last28!.caveat).toMatch(/holds only 16 of the 28 days of the year before/);
    expect(ytd!.previous.coverage).toBe('partial');
    expect(ytd!.caveat).toMatch(/not a like-for-like comparison/);
  });

  it('refuses fewer than 30 incidents', () => {
    const few = incidents([['2024-03-12', 0, 29]]);
    expect(() => compStat({ ...input, ...few, areas: [{ ...input.areas[0]!, rows: few.rows }] })).toThrow(
      AnalysisRefused,
    );
  });
});
