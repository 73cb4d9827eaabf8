import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AreaView } from '../../src-shared/sync';
import { SurfaceInfo } from './SurfaceInfo';
import { trendBars } from './surfaceText';

const base: AreaView = {
  id: 1,
  name: 'Downtown',
  shape: { kind: 'circle', lat: 41.88, lon: -87.63, radiusMi: 2 },
  refreshMinutes: 60,
  paused: false,
  createdAt: 1,
  lastSyncedAt: 2,
  backfilledAt: 2,
  lastRun: {
    runId: 3,
    kind: 'refresh',
    state: 'done',
    startedAt: 2,
    finishedAt: 3,
    requests: 2,
    new: 0,
    updated: 0,
    removed: 0,
    error: null,
    surface: 'v1',
  },
  syncing: false,
  surface: { using: 'v1', state: 'verified', reason: 'v1 verified: 20 of 20', probedAt: 1, history: null },
  score: {
    fetchedAt: 1,
    score: {
      score: 72,
      grade: 'B',
      radiusMi: 2.0015,
      updatedAt: '2025-06-01T00:00:00.000Z',
      breakdown: { violent: 3, property: 9, qualityOfLife: 4 },
    },
    trends: {
      interval: 'week',
      buckets: [
        { start: '2025-05-18', end: '2025-05-24', count: 4 },
        { start: '2025-05-25', end: '2025-05-31', count: 8 },
      ],
    },
  },
};

describe('the area card’s surface line', () => {
  it('shows v1 with the score and the trend as the service sent them', () => {
    const html = renderToStaticMarkup(<SurfaceInfo area={base} />);
    expect(html).toMatch(/data-testid="surface-badge"[^>]*>v1</);
    expect(html).toContain('Safety score 72 (B) within 2 mi — violent 3, property 9, quality of life 4');
    expect(html).toContain('aria-label="Incidents per week, last 2: 4, 8"');
    expect(html).not.toContain('surface-note');
  });

  it('shows live, and why v1 is not used when it answers but disagrees; no score without v1', () => {
    const reason =
      'v1 ids are not the live cdids (20 of 20 sample incidents, e.g. live 1 is v1 2); syncing on the live surface.';
    const html = renderToStaticMarkup(
      <SurfaceInfo
        area={{
          ...base,
          lastRun: { ...base.lastRun!, surface: 'live' },
          surface: { using: 'live', state: 'mismatch', reason, probedAt: 1, history: null },
          score: null,
        }}
      />,
    );
    expect(html).toMatch(/data-testid="surface-badge"[^>]*>live</);
    expect(html).toContain(reason);
    expect(html).not.toContain('Safety score');
  });

  it('says nothing more while v1 is simply not live yet', () => {
    const html = renderToStaticMarkup(
      <SurfaceInfo
        area={{
          ...base,
          lastRun: null,
          surface: { using: 'live', state: 'absent', reason: 'no v1 yet', probedAt: 1, history: null },
          score: null,
        }}
      />,
    );
    expect(html).toMatch(/>live</);
    expect(html).not.toContain('no v1 yet');
  });

  it('scales the trend to its largest week', () => {
    expect(trendBars([0, 5, 10])).toEqual([0, 50, 100]);
    expect(trendBars([0, 0])).toEqual([0, 0]);
  });
});
