import { describe, expect, it } from 'vitest';
import type { CoverageResult } from '../../src-shared/incidentQueries';
import type { SyncProgress } from '../workspace/activity';
import { emptyDraft, previewShape, shapeToCreate } from './addAreaModel';
import { circleOf, parseLatLon } from './coordinates';
import { coverageSegments, coverageSummary } from './coverageSegments';
import { etaText, fractionDone, minutesText, planText, progressLine } from './progressText';
import { drawnShapeText, shapeText } from './shapeText';

const progress = (over: Partial<SyncProgress>): SyncProgress => ({
  type: 'syncProgress',
  areaId: 1,
  runId: 1,
  kind: 'backfill',
  state: 'running',
  planned: 9,
  done: 4,
  new: 120,
  updated: 3,
  removed: 1,
  etaSeconds: 75,
  ...over,
});

describe('progress and ETA in words', () => {
  it('says the state, requests done of planned, what changed and the time left', () => {
    expect(progressLine(progress({}), 0)).toBe(
      'Syncing · 4 of 9 requests · 120 new, 3 updated, 1 removed · about 1 min left',
    );
  });

  it('counts a rate-limit wait down, naming who asked for it', () => {
    const now = 1_000_000;
    const server = progress({
      state: 'waiting-rate',
      retryAt: now + 11_200,
      message: 'Waiting 12 s: the server asked us to slow down.',
    });
    expect(progressLine(server, now)).toMatch(/^Waiting 12 s — the API asked us to slow down · 4 of 9/);
    const plan = progress({
      state: 'waiting-rate',
      retryAt: now + 3_000,
      message: "Waiting for the plan's rate limit (60 requests a minute)",
    });
    expect(progressLine(plan, now)).toMatch(/^Waiting 3 s — keeping within your plan's rate limit/);
  });

  it('says why a sync has not started yet', () => {
    const waiting = progress({
      state: 'planning',
      runId: 0,
      done: 0,
      planned: 0,
      new: 0,
      updated: 0,
      removed: 0,
    });
    expect(progressLine({ ...waiting, message: 'Waiting for the import to be saved' }, 0)).toMatch(
      /^Waiting for the import to be saved · /,
    );
    expect(progressLine(waiting, 0)).toMatch(/^Planning · /);
  });

  it('says offline and retrying with their countdown', () => {
    const now = 0;
    expect(progressLine(progress({ state: 'offline', retryAt: 3_000 }), now)).toMatch(
      /^Offline — waiting to retry in 3 s/,
    );
    expect(progressLine(progress({ state: 'retrying', retryAt: 2_000 }), now)).toMatch(
      /^Retrying after an error in 2 s/,
    );
  });

  it('leaves the time out once finished, and fills the bar when done', () => {
    expect(progressLine(progress({ state: 'done', done: 9, etaSeconds: 0 }), 0)).toBe(
      'Up to date · 9 of 9 requests · 120 new, 3 updated, 1 removed',
    );
    expect(fractionDone(progress({ state: 'done', planned: 12, done: 9 }))).toBe(1);
    expect(fractionDone(progress({ planned: 0, done: 0 }))).toBe(0);
    expect(fractionDone(progress({ planned: 8, done: 10 }))).toBe(1);
  });

  it('rounds times the way a person would say them', () => {
    expect(etaText(null)).toBeNull();
    expect(etaText(3)).toBe('a few seconds left');
    expect(etaText(42)).toBe('about 42 s left');
    expect(etaText(600)).toBe('about 10 min left');
    expect(etaText(4_800)).toBe('about 1 h 20 min left');
    expect(minutesText(0.0015)).toBe('under a minute');
    expect(minutesText(11.2)).toBe('about 12 min');
    expect(minutesText(125)).toBe('about 2 h 5 min');
  });
});

describe('the plan before a sync', () => {
  const plan = {
    areas: [
      {
        areaId: 1,
        kind: 'backfill' as const,
        tiles: 9,
        requests: 9,
        minutes: 9 / 60,
        basis: 'minimum' as const,
      },
    ],
    requests: 9,
    minutes: 9 / 60,
    ratePerMinute: 60,
  };

  it('says requests and minutes at the plan rate, and what kind of sync it is', () => {
    const text = planText(plan, 1);
    expect(text.summary).toBe("At least 9 requests — under a minute at your plan's 60 requests a minute.");
    expect(text.detail).toMatch(/^First sync: the whole data window/);
    expect(text.detail).toMatch(/knows nothing of this place yet/);
  });

  it('estimates a refresh from local data', () => {
    const refresh = {
      ...plan,
      areas: [
        {
          ...plan.areas[0]!,
          kind: 'refresh' as const,
          requests: 1,
          minutes: 1 / 60,
          basis: 'local-data' as const,
        },
      ],
      requests: 1,
    };
    const text = planText(refresh, 1);
    expect(text.summary).toBe("About 1 request — under a minute at your plan's 60 requests a minute.");
    expect(text.detail).toMatch(/^Refresh: .* Estimated from the incidents already stored here\.$/);
  });
});

describe('the coverage strip', () => {
  const band: CoverageResult = {
    basis: 'ledger',
    from: '2025-11-20',
    to: '2026-11-22',
    runs: [
      { from: '2025-11-20', to: '2026-11-19', status: 'complete' },
      { from: '2026-11-20', to: '2026-11-21', status: 'provisional' },
      { from: '2026-11-22', to: '2026-11-22', status: 'missing' },
    ],
    totals: { complete: 365, saturated: 0, provisional: 2, missing: 1 },
  };

  it('makes one segment per run, as wide as its days, with a label for readers', () => {
    const segments = coverageSegments(band);
    expect(segments.map((s) => s.days)).toEqual([365, 2, 1]);
    expect(segments.reduce((a, s) => a + s.percent, 0)).toBeCloseTo(100);
    expect(segments[0]?.label).toBe('Nov 20, 2025 – Nov 19, 2026: complete, 365 days');
    expect(segments[1]?.label).toMatch(/provisional \(recent days, still being reported\), 2 days/);
    expect(segments[2]?.label).toBe('Nov 22, 2026: missing (not synced), 1 day');
  });

  it('sums up the band', () => {
    expect(coverageSummary(band)).toBe('365 days complete, 2 provisional, 1 missing');
    expect(
      coverageSummary({
        ...band,
        runs: [],
        totals: { complete: 0, saturated: 0, provisional: 0, missing: 0 },
      }),
    ).toBe('Nothing synced yet');
  });
});

describe('typed coordinates and shapes', () => {
  it('reads "lat, lon" in the usual ways', () => {
    expect(parseLatLon('39.7392, -104.9903')).toEqual([39.7392, -104.9903]);
    expect(parseLatLon('39.7392 -104.9903')).toEqual([39.7392, -104.9903]);
    expect(parseLatLon('39.7392N 104.9903W')).toEqual([39.7392, -104.9903]);
    expect(parseLatLon('Denver')).toBeNull();
    expect(parseLatLon('95, 10')).toBeNull();
  });

  it('turns the form into a circle, or says what is wrong with each field', () => {
    expect(circleOf({ centre: '39.7392, -104.9903', radius: '1.5' })).toEqual({
      shape: { kind: 'circle', lat: 39.7392, lon: -104.9903, radiusMi: 1.5 },
    });
    const bad = circleOf({ centre: 'downtown', radius: '0' });
    expect('errors' in bad && bad.errors.centre).toMatch(/latitude, longitude/);
    expect('errors' in bad && bad.errors.radius).toMatch(/greater than 0/);
    const wide = circleOf({ centre: '1, 2', radius: '80' });
    expect('errors' in wide && wide.errors.radius).toMatch(/at most 50 miles/);
  });

  it('describes shapes in a few words', () => {
    expect(shapeText({ kind: 'circle', lat: 39.73921, lon: -104.99034, radiusMi: 1 })).toBe(
      'Circle of 1 mi around 39.7392, -104.9903',
    );
    expect(
      shapeText({
        kind: 'polygon',
        points: [
          [1, 2],
          [3, 4],
          [5, 6],
        ],
      }),
    ).toBe('Polygon, 3 corners');
    expect(drawnShapeText({ circle: { lat: 1, lon: 2, radiusMi: 0.5 } })).toBe('Drawn circle, 0.5 mi');
    expect(drawnShapeText({ areaId: 3 })).toBeNull();
  });
});

describe('the add-area form', () => {
  const drawn = {
    kind: 'polygon' as const,
    points: [
      [1, 2],
      [3, 4],
      [5, 6],
    ] as [number, number][],
  };

  it('asks for a drawing and a name when drawing', () => {
    expect(shapeToCreate(emptyDraft)).toEqual({
      errors: { drawn: 'Draw a circle or a polygon on the map first.', name: 'Give the area a name.' },
    });
    expect(shapeToCreate({ ...emptyDraft, drawn, name: ' Loop ' })).toEqual({ shape: drawn, name: 'Loop' });
    expect(previewShape({ ...emptyDraft, drawn })).toBeNull();
  });

  it('previews and creates a circle around a place or typed coordinates', () => {
    const draft = {
      ...emptyDraft,
      method: 'place' as const,
      centre: '39.74, -104.99',
      radius: '2',
      name: 'Denver',
    };
    const circle = { kind: 'circle', lat: 39.74, lon: -104.99, radiusMi: 2 };
    expect(previewShape(draft)).toEqual(circle);
    expect(shapeToCreate(draft)).toEqual({ shape: circle, name: 'Denver' });
    expect(previewShape({ ...draft, centre: 'nowhere' })).toBeNull();
    const bad = shapeToCreate({ ...draft, method: 'coordinates', radius: '-1', name: '' });
    expect('errors' in bad && Object.keys(bad.errors).sort()).toEqual(['name', 'radius']);
  });
});
