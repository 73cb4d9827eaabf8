import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDatabase } from '../../../bench/seed';
import type { EngineEvent } from '../../../src-shared/contract';
import { dbFileOf } from '../dataDir';
import type { Engine } from '../engine';
import { openEngine, type EngineFixture } from '../testing/engineFixture';

/** 1,500 incidents over 200 days to 2025-03-14, the same every run. */
const seed = (dataDir: string) =>
  seedDatabase(dbFileOf(dataDir), { count: 1500, seed: 3, endDay: '2025-03-14', days: 200 });

type Ok<T> = { ok: true; value: T };

describe('analysis calls through the engine', () => {
  let fx: EngineFixture;
  let engine: Engine;
  let events: EngineEvent[];

  beforeEach(() => {
    fx = openEngine({ version: '0.0.0', checkOutputs: true, before: seed });
    ({ engine, events } = fx);
  });
  afterEach(() => fx.close());

  const filters = { preset: 'all' as const };

  it('runs hot spots on the filter’s incidents, every cell counted once, with provenance and progress', async () => {
    const count = (await engine.dispatch('countIncidents', { filters })) as Ok<{ total: number }>;
    const r = (await engine.dispatch('analyzeHotSpots', { filters, jobId: 'hs1' })) as Ok<{
      jobId: string;
      provenance: { incidents: number; filters: unknown; coverage: { areas: unknown[] } };
      geojson: { parameters: Record<string, unknown>; features: { properties: Record<string, number> }[] };
    }>;
    expect(r).toMatchObject({ ok: true });
    expect(r.value.jobId).toBe('hs1');
    expect(r.value.provenance.incidents).toBe(count.value.total);
    expect(r.value.geojson.parameters).toMatchObject({
      grid: 'square',
      filters,
      utm_epsg: expect.any(Number),
    });
    expect(r.value.geojson.parameters.coverage).toBeTruthy();
    // Masked cells (outside the areas) are not reported; the counted cells hold the incidents inside the areas.
    const counted = r.value.geojson.features.reduce((s, f) => s + (f.properties.count ?? 0), 0);
    expect(counted).toBeGreaterThan(0);
    expect(counted).toBeLessThanOrEqual(count.value.total);
    const mine = events.filter((e) => e.type === 'analysisProgress' && e.jobId === 'hs1');
    expect(mine[0]).toMatchObject({ state: 'running' });
    expect(mine.at(-1)).toMatchObject({ state: 'done', fraction: 1 });
  });

  it('answers kernel density as a raster, near repeat, repeat locations and CompStat within the contract', async () => {
    const kde = (await engine.dispatch('analyzeKde', { filters })) as Ok<{
      raster: { width: number; height: number; dataBase64: string };
      max: number;
    }>;
    expect(kde).toMatchObject({ ok: true });
    expect(Buffer.from(kde.value.raster.dataBase64, 'base64').length).toBe(
      kde.value.raster.width * kde.value.raster.height * 4,
    );
    expect(kde.value.max).toBeGreaterThan(0);
    const tiff = (await engine.dispatch('analyzeKde', { filters, format: 'geotiff' })) as Ok<{
      geotiffBase64: string;
    }>;
    expect(Buffer.from(tiff.value.geotiffBase64, 'base64').subarray(0, 2).toString()).toBe('II');

    const knox = await engine.dispatch('analyzeNearRepeat', {
      filters,
      spaceBands: [0, 400, 800],
      spaceUnit: 'ft',
      timeBandsDays: [0, 7, 14],
      iterations: 19,
    });
    expect(knox).toMatchObject({
      ok: true,
      value: { cells: expect.any(Array), parameters: { iterations: 19 } },
    });
    expect((knox as Ok<{ cells: unknown[] }>).value.cells).toHaveLength(4);

    const repeats = (await engine.dispatch('analyzeRepeatLocations', { filters, distanceM: 50 })) as Ok<{
      groups: { count: number; cdids: number[]; lat: number; lon: number; radiusM: number }[];
    }>;
    expect(repeats).toMatchObject({ ok: true });
    for (const g of repeats.value.groups) expect(g.cdids).toHaveLength(g.count);
    // A drill-down circle of the group's radius (+ 2 m) around its centre holds all its incidents.
    const g = repeats.value.groups.find((x) => x.count >= 3) as {
      count: number;
      lat: number;
      lon: number;
      radiusM: number;
    };
    expect(g.radiusM).toBeGreaterThan(0);
    const inside = (await engine.dispatch('countIncidents', {
      filters: {
        ...filters,
        area: { circle: { lat: g.lat, lon: g.lon, radiusMi: (g.radiusM + 2) / 1609.344 } },
      },
    })) as Ok<{ total: number }>;
    expect(inside.value.total).toBeGreaterThanOrEqual(g.count);

    const cs = await engine.dispatch('analyzeCompStat', { filters, asOf: '2025-03-14' });
    expect(cs).toMatchObject({
      ok: true,
      value: { areas: expect.any(Array), parameters: { as_of: '2025-03-14' } },
    });
  });

  it('repeat locations by default are History’s places: the same addresses, counts, types and latest incident', async () => {
    const area = { areaId: 1 };
    const repeats = (await engine.dispatch('analyzeRepeatLocations', {
      filters: { ...filters, area },
      limit: 20,
    })) as Ok<{
      groups: {
        address: string;
        count: number;
        topType: string;
        cdids: number[];
        firstUtc: number;
        lastUtc: number;
        lastZone: string;
      }[];
      totalGroups: number;
      parameters: Record<string, unknown>;
    }>;
    const top = (await engine.dispatch('topLocations', { filters: { ...filters, area }, limit: 20 })) as Ok<{
      locations: { address: string; count: number; topType: string; lastUtc: number; lastZone: string }[];
    }>;
    expect(repeats).toMatchObject({ ok: true, value: { parameters: { method: 'block address' } } });
    expect(top.value.locations.length).toBeGreaterThan(1);
    expect(
      repeats.value.groups.map(({ address, count, topType, lastUtc, lastZone }) => ({
        address,
        count,
        topType,
        lastUtc,
        lastZone,
      })),
    ).toEqual(
      top.value.locations.map(({ address, count, topType, lastUtc, lastZone }) => ({
        address,
        count,
        topType,
        lastUtc,
        lastZone,
      })),
    );
    expect(repeats.value.totalGroups).toBeGreaterThanOrEqual(repeats.value.groups.length);
    for (const g of repeats.value.groups) {
      expect(g.cdids).toHaveLength(g.count);
      expect(g.firstUtc).toBeLessThanOrEqual(g.lastUtc);
    }
    // A group by distance is named by its incidents' commonest block address.
    const near = (await engine.dispatch('analyzeRepeatLocations', {
      filters: { ...filters, area },
      distanceM: 50,
    })) as Ok<{ groups: { address: string }[] }>;
    const known = new Set(top.value.locations.map((l) => l.address));
    expect(near.value.groups.some((g) => known.has(g.address))).toBe(true);
  });

  it('CompStat counts its periods from the as-of day whatever the date filter, the other filters applied and named', async () => {
    // A 7-day filter on Chicago, Saturdays left out: no period may be cut to those 7 days.
    const weekdays = [0, 1, 2, 3, 4, 5];
    const area = { areaId: 1 };
    const cs = (await engine.dispatch('analyzeCompStat', {
      filters: { area, weekdays, from: '2025-03-08', to: '2025-03-14' },
      asOf: '2025-03-14',
    })) as Ok<{
      areas: { rows: { label: string; cells: { current: number }[] }[] }[];
      filterWords: string[];
    }>;
    expect(cs).toMatchObject({ ok: true });
    const count = async (from: string, to: string, more: Record<string, unknown> = {}) =>
      (
        (await engine.dispatch('countIncidents', { filters: { area, weekdays, from, to, ...more } })) as Ok<{
          total: number;
        }>
      ).value.total;
    const all = cs.value.areas[0]?.rows.find((r) => r.label === 'Total');
    const ytd = await count('2025-01-01', '2025-03-14');
    const last28 = await count('2025-02-15', '2025-03-14');
    const last7 = await count('2025-03-08', '2025-03-14');
    expect(ytd).toBeGreaterThan(last28);
    expect(last28).toBeGreaterThan(last7);
    expect(all?.cells.map((c) => c.current)).toEqual([
      await count('2025-03-10', '2025-03-14'), // week to date: Monday 10 March to Friday 14
      last7,
      last28,
      ytd,
    ]);
    // A type filter applies, and the caption's words name what was counted (the dates set aside).
    const theft = (await engine.dispatch('analyzeCompStat', {
      filters: { area, weekdays, types: ['theft'], preset: '7d' },
      asOf: '2025-03-14',
    })) as Ok<typeof cs.value>;
    const theftYtd = theft.value.areas[0]?.rows.find((r) => r.label === 'Total')?.cells[3]?.current;
    expect(theftYtd).toBe(await count('2025-01-01', '2025-03-14', { types: ['Theft'] }));
    expect(theftYtd).toBeLessThan(ytd);
    expect(theft.value.filterWords).toEqual([
      'Types: theft',
      'Weekdays: Monday, Tuesday, Wednesday, Thursday, Friday, Sunday',
      'Area: Chicago',
      'Dates: not applied (each period is counted up to the as-of day)',
    ]);
  });

  it('refuses a 4 m hot spot cell before the work, naming 2,000,000 cells and the smallest cell that fits, which runs', async () => {
    const chicago = { area: { areaId: 1 }, preset: 'all' as const };
    const started = performance.now();
    const r = await engine.dispatch('analyzeHotSpots', { filters: chicago, cellSizeM: 4 });
    const ms = performance.now() - started;
    expect(r).toMatchObject({
      ok: false,
      error: {
        code: 'bad_input',
        message: expect.stringContaining('more than the 2,000,000 cells a grid may hold'),
      },
    });
    // The helper thread starts and refuses; the 40 million cells are never built.
    expect(ms).toBeLessThan(8000);
    const message = (r as { error: { message: string } }).error.message;
    const fit = Number(/smallest cell that fits is ([\d,.]+) m\./.exec(message)?.[1]?.replace(/,/g, ''));
    expect(fit).toBeGreaterThan(4);
    const ok = (await engine.dispatch('analyzeHotSpots', { filters: chicago, cellSizeM: fit })) as Ok<{
      geojson: { parameters: Record<string, unknown>; features: unknown[] };
    }>;
    expect(ok).toMatchObject({ ok: true });
    expect(ok.value.geojson.parameters.cell_size_m).toBe(fit);
    expect(Buffer.byteLength(JSON.stringify(ok.value.geojson))).toBeLessThanOrEqual(50_000_000);
  }, 120_000);

  it('refuses an impossible as-of day for CompStat, naming it', async () => {
    for (const asOf of ['2025-02-30', '0000-01-01', '2025-13-01']) {
      const r = await engine.dispatch('analyzeCompStat', { filters, asOf });
      expect(r, asOf).toMatchObject({
        ok: false,
        error: { code: 'bad_input', message: expect.stringContaining(asOf) },
      });
    }
  });

  it('refuses below 30 incidents in words, and a cancelled run answers cancelled', async () => {
    const few = await engine.dispatch('analyzeHotSpots', {
      filters: { from: '2025-03-14', to: '2025-03-14', types: ['Arson'] },
    });
    expect(few).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringMatching(/at least 30 incidents/) },
    });

    const running = engine.dispatch('analyzeNearRepeat', {
      filters,
      jobId: 'slow',
      spaceBands: [0, 5000, 10000],
      spaceUnit: 'm',
      timeBandsDays: [0, 30, 60],
      iterations: 9999,
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(await engine.dispatch('cancelAnalysis', { jobId: 'slow' })).toMatchObject({
      ok: true,
      value: { cancelled: true },
    });
    expect(await running).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(
      events.some((e) => e.type === 'analysisProgress' && e.jobId === 'slow' && e.state === 'cancelled'),
    ).toBe(true);
  });
});

describe('analysis off the engine thread (issue 31)', () => {
  let fx: EngineFixture;
  afterEach(() => fx.close());

  /**
   * Runs `job` while counting every 20 ms; the longest the engine thread (this test's thread, the
   * engine runs in it) went without a turn of its event loop, and whether a count asked after the
   * job's first progress event was answered before the job's own answer.
   */
  async function whileCounting(job: () => Promise<unknown>, jobId: string) {
    let last = performance.now();
    let longest = 0;
    const ticker = setInterval(() => {
      const t = performance.now();
      longest = Math.max(longest, t - last);
      last = t;
    }, 5);
    const order: string[] = [];
    let counting = true;
    const counts = (async () => {
      await fx.waitFor((e): e is EngineEvent => e.type === 'analysisProgress' && e.jobId === jobId, 30_000);
      while (counting) {
        await fx.engine.dispatch('countIncidents', { filters: { preset: 'all' } });
        order.push('count');
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const answer = await job();
    order.push('job');
    counting = false;
    await counts;
    clearInterval(ticker);
    return { answer, longest, order };
  }

  it('builds a hot spot GeoJSON near its 50 MB bound on the helper thread: counts are answered meanwhile', async () => {
    fx = openEngine({ version: '0.0.0', checkOutputs: false, before: seed });
    const chicago = { area: { areaId: 1 }, preset: 'all' as const };
    const refused = await fx.engine.dispatch('analyzeHotSpots', { filters: chicago, cellSizeM: 4 });
    const message = (refused as { error: { message: string } }).error.message;
    const fit = Number(/smallest cell that fits is ([\d,.]+) m\./.exec(message)?.[1]?.replace(/,/g, ''));
    const { answer, longest, order } = await whileCounting(
      () => fx.engine.dispatch('analyzeHotSpots', { filters: chicago, cellSizeM: fit, jobId: 'big' }),
      'big',
    );
    expect(answer).toMatchObject({ ok: true, value: { geojson: { type: 'FeatureCollection' } } });
    expect(
      (answer as Ok<{ geojson: { features: unknown[] } }>).value.geojson.features.length,
    ).toBeGreaterThan(100_000);
    // A count asked while the job ran came back before the job's answer.
    expect(order.indexOf('count')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('count')).toBeLessThan(order.indexOf('job'));
    // Building the GeoJSON here held the thread for seconds; now only the answer's copy is left.
    expect(longest).toBeLessThan(600);
  }, 120_000);

  it('makes a kernel density raster at its largest grid on the helper thread: counts are answered meanwhile', async () => {
    fx = openEngine({ version: '0.0.0', checkOutputs: false, before: seed });
    const filters = { area: { areaId: 1 }, preset: 'all' as const };
    const refused = await fx.engine.dispatch('analyzeKde', { filters, cellSizeM: 1, radiusM: 600 });
    const message = (refused as { error: { message: string } }).error.message;
    const fit = Number(/smallest cell that fits is ([\d,.]+) m\./.exec(message)?.[1]?.replace(/,/g, ''));
    const { answer, longest, order } = await whileCounting(
      () => fx.engine.dispatch('analyzeKde', { filters, cellSizeM: fit, radiusM: 600, jobId: 'kde' }),
      'kde',
    );
    const raster = (answer as Ok<{ raster: { width: number; height: number; dataBase64: string } }>).value
      .raster;
    expect(raster.width * raster.height).toBeGreaterThan(500_000);
    expect(Buffer.from(raster.dataBase64, 'base64').length).toBe(raster.width * raster.height * 4);
    expect(order.indexOf('count')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('count')).toBeLessThan(order.indexOf('job'));
    // Resampling it here held the thread for a second or more.
    expect(longest).toBeLessThan(600);
  }, 120_000);
});
