import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CompareResult, CoverageResult, SeriesResult } from '../../src-shared/incidentQueries';
import { CompareCards } from './CompareCards';
import { CoverageBand } from './CoverageBand';
import {
  changeWords,
  coverageNote,
  coverageSummary,
  bucketLabel,
  seriesSummary,
  xAxisTitle,
  yAxisTitle,
} from './historyText';
import { HourWeekdayGrid, shade } from './HourWeekdayGrid';
import { comparedPeriod } from './period';
import { TopLocations } from './TopLocations';
import { TrendChart } from './TrendChart';

const coverage = (days: number, complete: number, provisional = 0) =>
  ({
    status:
      complete + provisional === days
        ? provisional
          ? 'provisional'
          : 'full'
        : complete + provisional === 0
          ? 'none'
          : 'partial',
    days,
    completeDays: complete,
    provisionalDays: provisional,
    missingDays: days - complete - provisional,
    basis: 'ledger',
  }) as CompareResult['current']['coverage'];

const period = (from: string, to: string, total: number, cov = coverage(30, 30)) => ({
  from,
  to,
  days: 30,
  total,
  byType: { Theft: total },
  coverage: cov,
});

const compare: CompareResult = {
  current: period('2025-04-11', '2025-05-10', 120, coverage(30, 28, 2)),
  previous: period('2025-03-12', '2025-04-10', 100),
  yearAgo: period('2024-04-11', '2024-05-10', 40, coverage(30, 12)),
  vsPrevious: { absolute: 20, percent: 20, comparable: true, note: null },
  vsYearAgo: { absolute: 80, percent: 200, comparable: false, note: 'engine words' },
};

// Dates follow the user's locale (src-shared/localTime.ts); the test runner's is en-US (LANG=C.UTF-8).
describe('history words', () => {
  it('says changes with sign and percent, and when there is nothing to compare with', () => {
    expect(changeWords({ absolute: 20, percent: 20, comparable: true, note: null }, 100, 120)).toEqual({
      figure: '+20',
      percent: '+20 %',
      counts: '100 then, 120 now',
      direction: 'up',
    });
    expect(
      changeWords({ absolute: -1234, percent: -5.25, comparable: true, note: null }, 23_500, 22_266),
    ).toMatchObject({ figure: '−1,234', percent: '−5.3 %', direction: 'down' });
    expect(changeWords({ absolute: 7, percent: null, comparable: true, note: null }, 0, 7)).toMatchObject({
      percent: null,
      counts: 'none then, 7 now',
    });
    expect(changeWords({ absolute: 0, percent: 0, comparable: true, note: null }, 50, 50).figure).toBe(
      'No change',
    );
  });

  it('gives counts, never a percentage, when the earlier period had fewer than 10 incidents', () => {
    // 2 → 1,027 was printed as "+51250 %".
    const words = changeWords({ absolute: 1025, percent: 51250, comparable: true, note: null }, 2, 1027);
    expect(words.percent).toBeNull();
    expect(words.figure).toBe('+1,025');
    expect(words.counts).toBe('2 then, 1,027 now: too few then for a percentage');
    expect(changeWords({ absolute: 5, percent: 50, comparable: true, note: null }, 10, 15).percent).toBe(
      '+50 %',
    );
  });

  it('is plain about periods the archive does not fully hold', () => {
    expect(coverageNote(compare.yearAgo)).toBe('The archive only covers 12 of these 30 days.');
    expect(coverageNote(compare.previous)).toBeNull();
    expect(coverageNote(compare.current)).toMatch(/2 of these days are recent and still being reported/);
    expect(coverageNote(period('a', 'b', 0, coverage(30, 0)))).toBe(
      'The archive holds none of these 30 days.',
    );
  });

  it('labels axes with their unit and buckets by interval', () => {
    expect(yAxisTitle('week')).toBe('Incidents per week');
    expect(xAxisTitle('day')).toBe('Day (local date)');
    expect(bucketLabel('2025-07-01', 'month', false)).toBe('Jul 2025');
    expect(bucketLabel('2025-07-04', 'day', false)).toBe('Jul 4');
    expect(bucketLabel('2025-07-04', 'week', true)).toBe('Jul 4, 2025');
  });

  it('compares the filter’s own dates, or the last 30 days when it has none', () => {
    expect(comparedPeriod({ preset: '7d' }, '2025-05-10')).toEqual({
      from: '2025-05-04',
      to: '2025-05-10',
      fromFilter: true,
    });
    expect(comparedPeriod({ from: '2025-01-01', to: '2025-01-31' }, '2025-05-10').fromFilter).toBe(true);
    expect(comparedPeriod({ preset: 'all' }, '2025-05-10')).toEqual({
      from: '2025-04-11',
      to: '2025-05-10',
      fromFilter: false,
    });
  });
});

describe('history sections', () => {
  it('compare cards show totals, changes and caveats', () => {
    const html = renderToStaticMarkup(
      <CompareCards result={compare} basis="The filters set no date range." />,
    );
    expect(html).toContain('>This period</h3>');
    expect(html).toContain('+20</span><span> (+20 %)');
    expect(html).toContain('The archive only covers 12 of these 30 days.');
    expect(html).toContain('Not a like-for-like comparison');
    expect(html).toContain('The filters set no date range.');
  });

  it('a small earlier period shows its count, not "+51250 %"', () => {
    const small: CompareResult = {
      ...compare,
      current: period('2025-04-11', '2025-05-10', 1027),
      previous: period('2025-03-12', '2025-04-10', 2),
      vsPrevious: { absolute: 1025, percent: null, comparable: true, note: null },
    };
    const html = renderToStaticMarkup(<CompareCards result={small} basis={null} />);
    expect(html).not.toMatch(/51,?250/);
    expect(html).toContain('+1,025');
    expect(html).toContain('2 then, 1,027 now: too few then for a percentage');
  });

  it('the hour × weekday grid is a table, Monday first, a cell per hour, shaded by count', () => {
    const counts = Array.from({ length: 7 }, (_, d) =>
      Array.from({ length: 24 }, (_, h) => (d === 5 && h === 22 ? 40 : 1)),
    );
    const html = renderToStaticMarkup(<HourWeekdayGrid grid={{ counts, total: 207, max: 40 }} />);
    expect((html.match(/<tr>/g) ?? []).length).toBe(8);
    expect((html.match(/<td /g) ?? []).length).toBe(7 * 24);
    expect(html.indexOf('>Mon</th>')).toBeLessThan(html.indexOf('>Sun</th>'));
    expect(html).toContain('title="Friday 22:00–22:59: 40"');
    expect(html).toContain('--shade:1');
    expect(shade(0, 40)).toBe(0);
    expect(shade(10, 40)).toBeCloseTo(0.5);
  });

  it('the coverage band shows runs, a legend and the runs in words', () => {
    const band: CoverageResult = {
      basis: 'ledger',
      from: '2025-01-01',
      to: '2025-01-10',
      runs: [
        { from: '2025-01-01', to: '2025-01-05', status: 'missing' },
        { from: '2025-01-06', to: '2025-01-08', status: 'complete' },
        { from: '2025-01-09', to: '2025-01-10', status: 'provisional' },
      ],
      totals: { complete: 3, saturated: 0, provisional: 2, missing: 5 },
    };
    expect(coverageSummary(band)).toBe('3 days complete, 2 provisional, 5 missing.');
    const html = renderToStaticMarkup(<CoverageBand band={band} />);
    expect(html).toContain('style="left:0%;width:50%" title="Missing: Jan 1, 2025 – Jan 5, 2025"');
    expect(html).toContain('Provisional: Jan 9, 2025 – Jan 10, 2025');
  });

  it('top locations list addresses with their count, leading type and latest time in its own zone', () => {
    const html = renderToStaticMarkup(
      <TopLocations
        locations={[
          {
            address: '100 BLOCK OF N MAIN ST',
            count: 1234,
            lat: 1,
            lon: 2,
            topType: 'Theft',
            // 03:00 UTC on 11 May: still the evening of 10 May in Chicago.
            lastUtc: Date.parse('2025-05-11T03:00:00Z'),
            lastZone: 'America/Chicago',
          },
        ]}
      />,
    );
    expect(html).toContain('<td>100 BLOCK OF N MAIN ST</td><td class="num">1,234</td>');
    expect(html).toContain('<td>May 10, 2025, 10:00 PM CDT</td>');
    expect(html).not.toContain('2025-05-11');
    expect(renderToStaticMarkup(<TopLocations locations={[]} />)).toContain(
      'No address has two or more incidents under these filters.',
    );
  });

  it('the trend chart is a labelled canvas with its axis titles and a summary', () => {
    const series: SeriesResult = {
      interval: 'week',
      types: ['Theft', 'Arson'],
      buckets: [
        { start: '2025-04-28', end: '2025-05-04', total: 3, counts: [2, 1], partial: false },
        { start: '2025-05-05', end: '2025-05-11', total: 5, counts: [5, 0], partial: true },
      ],
      range: { from: '2025-04-28', to: '2025-05-10' },
    };
    expect(seriesSummary(series)).toBe(
      '8 incidents from Apr 28, 2025 to May 11, 2025, by week; the busiest week began May 5, 2025 with 5.',
    );
    const html = renderToStaticMarkup(<TrendChart series={series} />);
    expect(html).toContain('data-y-title="Incidents per week"');
    expect(html).toContain('role="img"');
    expect(html).toContain('Incidents per week, stacked by type. 8 incidents');
  });
});
