import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ReportModel } from '../../src-shared/exports';
import { reportHash, reportJobOf } from '../../src-shared/reportRoute';
import { ReportDocument } from './ReportPage';
import { mapBox, projection } from './StaticMap';

const model: ReportModel = {
  jobId: 'abc123',
  title: 'Incident report',
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
  top: [{ address: '1 BLOCK OF N MAIN ST', count: 3, lat: 41.88, lon: -87.63, topType: 'Theft', lastUtc: 0 }],
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
        lastSyncedAt: null,
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
};

describe('the printed report', () => {
  it('has its sections on three pages', () => {
    const html = renderToStaticMarkup(<ReportDocument model={model} />);
    expect((html.match(/class="report-page"/g) ?? []).length).toBe(3);
    for (const heading of [
      'Filters',
      'Map',
      'Incidents by type',
      'Incidents over time',
      'When incidents happen (local time)',
      'Top repeat locations',
      'Where these figures come from',
    ])
      expect(html).toContain(`>${heading}</h2>`);
    expect(html).toContain('Dates: 2025-04-11 to 2025-05-10 (last 30 days)');
    expect(html).toContain('66.7 %');
    expect(html).toContain('2 days: 20 Apr 2025 – 21 Apr 2025');
    expect(html).toContain('Addresses are block-level.');
    expect(html).toContain('Plan: Developer; the API serves the last 90 days.');
    expect((html.match(/<circle /g) ?? []).length).toBe(2);
    expect(html).toContain('<polygon');
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
