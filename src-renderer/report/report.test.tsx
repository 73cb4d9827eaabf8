import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ReportModel } from '../../src-shared/exports';
import { reportHash, reportJobOf } from '../../src-shared/reportRoute';
import { ReportDocument } from './ReportDocument';
import { cssString, footerCss, reportFilterWords } from './reportText';
import { mapBox, projection } from './StaticMap';

const model: ReportModel = {
  jobId: 'abc123',
  title: 'Weekly burglary bulletin',
  agency: 'Springfield Police Department',
  notes: 'Burglaries rose near the station.\nPatrols asked to watch Main St.',
  incidents: {
    total: 3,
    rows: [
      {
        cdid: 101,
        type: 'Theft',
        address: '1 BLOCK OF N MAIN ST',
        lat: 41.88,
        lon: -87.63,
        occurredLocal: '2025-05-10T22:00',
        timezone: 'America/Chicago',
        occurredUtc: Date.parse('2025-05-11T03:00:00Z'),
        removed: false,
        distanceMi: null,
      },
    ],
  },
  createdAt: Date.parse('2025-05-10T14:30:00Z'),
  version: '0.1.0',
  filters: { preset: '30d' },
  filterWords: ['Types: all', 'Dates: 2025-04-11 to 2025-05-10 (last 30 days)'],
  range: { from: '2025-04-11', to: '2025-05-10' },
  total: 3,
  byType: [
    { type: 'Theft', count: 2 },
    { type: 'Arson', count: 1 },
  ],
  series: {
    interval: 'day',
    types: ['Theft', 'Arson'],
    buckets: [{ start: '2025-05-10', end: '2025-05-10', total: 3, counts: [2, 1], partial: false }],
    range: { from: '2025-05-10', to: '2025-05-10' },
  },
  grid: { counts: Array.from({ length: 7 }, () => Array(24).fill(0) as number[]), total: 3, max: 0 },
  top: [
    {
      address: '1 BLOCK OF N MAIN ST',
      count: 3,
      lat: 41.88,
      lon: -87.63,
      topType: 'Theft',
      lastUtc: Date.parse('2025-05-11T03:00:00Z'),
      lastZone: 'America/Chicago',
    },
  ],
  map: {
    outlines: [
      [
        [41.9, -87.7],
        [41.9, -87.6],
        [41.8, -87.6],
      ],
    ],
    points: { lat: [41.88, 41.85], lon: [-87.63, -87.65], type: [0, 1] },
    shown: 2,
  },
  provenance: {
    areas: [
      {
        id: 1,
        name: 'Loop',
        lastSyncedAt: Date.parse('2025-05-10T14:00:00Z'),
        backfilledAt: null,
        gaps: [{ from: '2025-04-20', to: '2025-04-21' }],
        missingDays: 2,
        provisionalDays: 2,
      },
    ],
    coverageBasis: 'ledger',
    range: { from: '2025-04-11', to: '2025-05-10' },
    plan: { id: 'developer', label: 'Developer', windowDays: 90 },
    notes: ['Addresses are block-level.', 'The most recent 2 days are provisional.'],
  },
  analyses: { hotSpots: null, compStat: null },
  bulletin: {
    place: 'Loop',
    headline: [
      'Theft rose most: 24 in the last 7 days against 15 in the 7 before (+9, +60 %).',
      'The archive is missing 2 days (Apr 20 – Apr 21, 2025): counts over them are too low.',
    ],
    zone: 'America/Chicago',
    paper: 'letter',
    trend: {
      interval: 'week',
      types: ['Theft', 'Arson'],
      buckets: [
        { start: '2025-02-17', end: '2025-02-23', total: 4, counts: [3, 1], partial: false },
        { start: '2025-05-05', end: '2025-05-11', total: 3, counts: [2, 1], partial: true },
      ],
      range: { from: '2025-02-17', to: '2025-05-10' },
    },
    labels: [{ name: 'Loop', at: [41.9, -87.65] }],
    tooFew: true,
  },
};

const compare = (current: number, base: number) => ({
  base,
  change: current - base,
  percent: base >= 10 ? Math.round(((current - base) / base) * 1000) / 10 : null,
});
/** A cell compared with the days before (when given) and a year earlier (when given). */
const cell = (current: number, prior: number | null, yearAgo: number | null) => ({
  current,
  prior: prior === null ? null : compare(current, prior),
  yearAgo: yearAgo === null ? null : compare(current, yearAgo),
});
const side = (from: string, to: string, days = 1) => ({ from, to, coverage: 'full', held: days });
const base = (from: string, to: string, compared: boolean) => ({
  ...side(from, to),
  coverage: compared ? 'full' : 'none',
  held: compared ? 1 : 0,
  compared,
});
const withAnalyses: ReportModel = {
  ...model,
  analyses: {
    hotSpots: {
      parameters: {
        grid: 'square',
        cell_size_m: 250,
        distance_band_m: 500,
        utm_epsg: 32616,
        incidents: 3,
        cells: 40,
        masked_cells: 2,
      },
      bins: { '3': 1, '2': 1, '1': 0, '0': 37, '-1': 0, '-2': 1, '-3': 0 },
      cells: [
        {
          bin: -2,
          count: 0,
          ring: [
            [41.81, -87.69],
            [41.81, -87.68],
            [41.82, -87.68],
            [41.81, -87.69],
          ],
        },
        {
          bin: 3,
          count: 9,
          ring: [
            [41.88, -87.64],
            [41.88, -87.63],
            [41.89, -87.63],
            [41.88, -87.64],
          ],
        },
      ],
    },
    compStat: {
      parameters: { weeks_start: 'Monday', as_of: null, min_percent_base: 10, incidents: 3 },
      filterWords: [
        'Types: Theft',
        'Weekdays: Sunday',
        'Area: Loop',
        'Dates: not applied (each period is counted up to the as-of day)',
      ],
      areas: [
        {
          areaId: 1,
          area: 'Loop',
          zone: 'America/Chicago',
          today: '2025-05-10',
          periods: [
            {
              key: 'week_to_date',
              label: 'Week to date',
              current: side('2025-05-05', '2025-05-10'),
              prior: base('2025-04-28', '2025-05-03', true),
              yearAgo: base('2024-05-06', '2024-05-11', false),
            },
            {
              key: 'year_to_date',
              label: 'Year to date',
              current: side('2025-01-01', '2025-05-10'),
              prior: null,
              yearAgo: base('2024-01-01', '2024-05-10', false),
            },
          ],
          rows: [
            {
              label: 'Property',
              kind: 'group',
              types: ['Burglary', 'Theft'],
              cells: [cell(3, 1, null), cell(24, null, null)],
            },
            {
              label: 'Theft',
              kind: 'type',
              types: ['Theft'],
              cells: [cell(3, 1, null), cell(24, null, null)],
            },
            { label: 'Total', kind: 'total', types: [], cells: [cell(30, 20, null), cell(40, null, null)] },
          ],
          notes: [
            'No comparison with a year earlier: the archive does not hold all of those days (from 2024-01-01).',
          ],
        },
      ],
    },
  },
};

describe('the printed report', () => {
  it('is a bulletin: agency, title, headline, notes, the map with its legend and labels, trend, repeat locations, provenance and the incident list', () => {
    const html = renderToStaticMarkup(<ReportDocument model={model} />);
    expect(html).toContain('>Springfield Police Department</p>');
    expect(html).toContain('<h1>Weekly burglary bulletin</h1>');
    expect(html).toContain('Burglaries rose near the station.\nPatrols asked to watch Main St.');
    // The engine's headline, first after the header.
    expect(html).toMatch(
      /<\/header><section[^>]*data-testid="report-headline"[^>]*><p>Theft rose most: 24 in the last 7 days against 15 in the 7 before \(\+9, \+60 %\)\.<\/p><p>The archive is missing 2 days/,
    );
    for (const heading of [
      'Analyst’s notes',
      '12-week trend (weeks start Monday)',
      'Top repeat locations (block address)',
      'Where these figures come from',
      'Incidents',
    ])
      expect(html).toContain(`>${heading}</h2>`);
    // The hour grid and the type table made the old report 10 pages; the legend carries the counts.
    expect(html).not.toContain('When incidents happen');
    expect(html).not.toContain('Incidents by type');
    expect(html).toMatch(
      /data-testid="report-legend"[^]*Theft <span[^>]*>2<\/span>[^]*Arson <span[^>]*>1<\/span>/,
    );
    // Symbols readable on paper (radius 3.5 of 700, white ring), the area named on the map.
    expect((html.match(/<circle [^>]*r="3.5"/g) ?? []).length).toBe(2 + 2); // the map's two and the legend's two
    expect(html).toMatch(/<text[^>]*class="[^"]*staticMapLabel[^"]*"[^>]*>Loop<\/text>/);
    // One flowing document: no section forces a page of its own (half-empty pages).
    expect(html).not.toContain('report-page');
    expect(html).toContain('Addresses are block-level.');
    expect(html).toContain('Plan: Developer; the API serves the last 90 days.');
    expect(html).toContain('Filters: Types: all; Dates: Apr 11, 2025 to May 10, 2025 (last 30 days).');
    expect(html).toContain('The trend counts the 12 weeks Feb 17 – May 10, 2025');
    // Three incidents: printed all the same, saying the numbers are too few to compare.
    expect(html).toContain('Under 30 incidents nothing is compared: the numbers are too few.');
    const enough = renderToStaticMarkup(
      <ReportDocument model={{ ...model, bulletin: { ...model.bulletin, tooFew: false } }} />,
    );
    expect(enough).toContain('The headline compares the last 7 days with the 7 before');
    expect(html).toContain('<polygon');
    expect(html).toContain(
      '@bottom-left { content: "Springfield Police Department — Weekly burglary bulletin"',
    );
  });

  it('prints on Letter or A4 as the model says', () => {
    expect(renderToStaticMarkup(<ReportDocument model={model} />)).toContain('@page { size: Letter; }');
    const a4 = renderToStaticMarkup(
      <ReportDocument model={{ ...model, bulletin: { ...model.bulletin, paper: 'a4' } }} />,
    );
    expect(a4).toContain('@page { size: A4; }');
    expect(a4).toContain('data-paper="a4"');
  });

  it('adds the hot spot map (bin colours, legend, parameters) and the CompStat table when asked', () => {
    expect(renderToStaticMarkup(<ReportDocument model={model} />)).not.toContain('>CompStat</h2>');
    const html = renderToStaticMarkup(<ReportDocument model={withAnalyses} />);
    expect(html).toContain('>Hot spots (Getis-Ord Gi*)</h2>');
    // The Analysis view's colours: 99 % hot is #b2182b, 95 % cold #67a9cf; the hottest drawn last.
    const fills = [...html.matchAll(/class="hotspot-cell"[^>]*fill="(#[0-9a-f]{6})"/g)].map((m) => m[1]);
    expect(fills).toEqual(['#67a9cf', '#b2182b']);
    expect(html).toContain('Hot spot, 99 % confidence');
    expect(html).toContain('(37 cells)');
    expect(html).toContain(
      'Square grid of 250 m cells (side); distance band 500 m (binary weights, the cell itself included); UTM EPSG:32616; 40 cells computed, 2 outside the synced areas left out; 3 incidents',
    );

    expect(html).toContain('>CompStat</h2>');
    expect(html).toContain('Loop — as of May 10, 2025 (America/Chicago); weeks start Monday');
    // The caption names what the table counts: every filter but the dates, set aside by the periods.
    expect(html).toMatch(
      /<caption>[^]*Counted: Types: Theft; Weekdays: Sunday; Area: Loop; Dates: not applied \(each period is counted up to the as-of day\)\.<\/span><span[^>]*>No comparison/,
    );
    expect(html).toContain('>Week to date</th>');
    // Counts, change and percent change only at a base of 10 or more; only the comparisons the
    // archive can make have a column (week to date: the week before; no year-earlier column).
    expect(html).toContain('>vs week before</th>');
    expect(html).not.toContain('vs year earlier');
    expect(html).toContain('<td title="from 1"><span class="muted">1</span> +2</td>');
    expect(html).toContain('<td title="from 20"><span class="muted">20</span> +10 (+50 %)</td>');
    expect(html).not.toContain('vs 0');
    // The comparison the archive cannot make is one note in the caption, its day written the page's way.
    expect(html).toMatch(
      /<caption>[^]*No comparison with a year earlier: [^<]*\(from Jan 1, 2024\)\.<\/span>[^]*<\/caption>/,
    );
    expect(html).toContain('Week to date: May 5, 2025 to May 10, 2025; before: Apr 28, 2025 to May 3, 2025');
    expect(html).not.toMatch(/>[^<]*\d{4}-\d{2}-\d{2}[^<]*</); // no ISO day in the printed words
  });

  it('says why an analysis it was asked for is missing', () => {
    const html = renderToStaticMarkup(
      <ReportDocument
        model={{
          ...model,
          analyses: {
            hotSpots: { refused: 'Hot spot analysis needs at least 30 incidents; the filters match 3.' },
            compStat: { refused: 'CompStat needs at least 30 incidents; the filters match 3.' },
          },
        }}
      />,
    );
    expect(html).toContain('Hot spot analysis needs at least 30 incidents; the filters match 3.');
    expect(html).toContain('CompStat needs at least 30 incidents; the filters match 3.');
  });

  it('writes every date in one format, local, with the zone (the runner’s locale is en-US)', () => {
    const html = renderToStaticMarkup(<ReportDocument model={model} />);
    expect(html).toContain('Dates: Apr 11, 2025 to May 10, 2025 (last 30 days)');
    expect(html).toContain('2 days: Apr 20 – Apr 21, 2025');
    // An incident at 03:00 UTC on 11 May happened on the evening of 10 May in Chicago.
    expect(html).toContain('May 10, 2025, 10:00 PM CDT');
    expect(html).not.toMatch(/\d{4}-\d{2}-\d{2}/); // no ISO day left anywhere
    // Blotter's own moments (prepared, last synced) are in the bulletin's zone, with its abbreviation.
    expect(html).toContain('Prepared May 10, 2025, 9:30 AM CDT with Blotter');
    expect(html).toContain('<td>May 10, 2025, 9:00 AM CDT</td>');
    expect(html).toContain('Times are local to America/Chicago (CDT when prepared).');
    const dates = html.match(/\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}\b/g) ?? [];
    expect(dates.length).toBeGreaterThan(5);
  });

  it('keeps footer words inside their CSS string and the dates of the filters readable', () => {
    expect(cssString('A "quoted" \\ name</style>')).toBe('"A \\22 quoted\\22  \\5c  name\\3c /style>"');
    expect(footerCss({ agency: '', title: 'Incident report' })).toContain('content: "Incident report"');
    expect(reportFilterWords({ filterWords: ['Types: all', 'Dates: 2025-04-11 to 2025-05-10'] })).toEqual([
      'Types: all',
      'Dates: Apr 11, 2025 to May 10, 2025',
    ]);
  });

  it('maps with square miles inside its frame', () => {
    const box = mapBox(model.map);
    expect(box).toEqual({ minLat: 41.8, maxLat: 41.9, minLon: -87.7, maxLon: -87.6 });
    const p = projection(box as NonNullable<typeof box>);
    expect(p.y(41.9)).toBeLessThan(p.y(41.8));
    const east = p.x(-87.6) - p.x(-87.7);
    const north = p.y(41.8) - p.y(41.9);
    expect(east / north).toBeCloseTo(Math.cos((41.85 * Math.PI) / 180), 3);
  });

  it('is reached at #/report?job=ID, and only with a plain job id', () => {
    expect(reportJobOf(reportHash('abc123'))).toBe('abc123');
    expect(reportJobOf('#/report?job=a%2F..')).toBeNull();
    expect(reportJobOf('#/map')).toBeNull();
  });
});
