/**
 * The report's analyses (issue 15, item 9): asked for in the report options, the model carries the
 * hot spot map and the CompStat table computed by the one analysis service — the same figures the
 * analyzeHotSpots / analyzeCompStat calls (and so `blotter analyze`) answer for the job's filters —
 * and the manifest records their parameters. Too few incidents is said in words, not a failure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDatabase } from '../../../bench/seed';
import type { CompStatOutput, HotSpotsOutput } from '../../../src-shared/analysis';
import type { CountResult } from '../../../src-shared/incidentQueries';
import type { EngineEvent } from '../../../src-shared/contract';
import { Manifest, ReportModel, type StartExportOutput } from '../../../src-shared/exports';
import { dbFileOf, logFileOf } from '../dataDir';
import { createEngine, type Engine } from '../engine';
import { configureLogging } from '../log';
import { createMemorySecretStore } from '../secrets/memorySecretStore';
import { makeTempDir, type TempDir } from '../testing/tempDir';

let dir: TempDir;
let engine: Engine;
const events: EngineEvent[] = [];
// Chicago (area 1 of the seed) over the whole archive.
const filters = { area: { areaId: 1 }, preset: 'all' as const };

beforeAll(() => {
  dir = makeTempDir('blotter-report-analyses-');
  seedDatabase(dbFileOf(dir.path), { count: 3000, seed: 5, days: 400 });
  configureLogging({ file: logFileOf(dir.path), stderr: false });
  engine = createEngine({
    dataDir: dir.path,
    secrets: createMemorySecretStore(),
    host: 'cli',
    version: '9.8.7',
    emit: (event) => events.push(event),
  });
});
afterAll(async () => {
  await engine.close();
  configureLogging({ file: null, stderr: true });
  dir.remove();
});

async function call<T>(name: string, input: unknown): Promise<T> {
  const result = await engine.dispatch(name, input);
  if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
  return result.value as T;
}

async function finished(jobId: string) {
  for (let k = 0; k < 200; k++) {
    const hit = events.find(
      (e) => e.type === 'exportProgress' && e.jobId === jobId && ['done', 'failed'].includes(e.state),
    );
    if (hit) return hit as Extract<EngineEvent, { type: 'exportProgress' }>;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the export did not finish');
}

async function reportWith(options: { hotSpotMap: boolean; compStat: boolean }, f: unknown = filters) {
  await call('updateSettings', {
    report: { title: 'Bulletin', agency: '', notes: '', incidentList: false, ...options },
  });
  const started = await call<StartExportOutput>('startExport', { format: 'pdf', filters: f });
  return { started, model: ReportModel.parse(await call('getReport', { jobId: started.jobId })) };
}

describe('the report’s hot spot map and CompStat table', () => {
  it('carry the analysis calls’ figures for the same filters, and the manifest their parameters', async () => {
    const { started, model } = await reportWith({ hotSpotMap: true, compStat: true });
    const cs = await call<CompStatOutput>('analyzeCompStat', { filters });
    const hs = await call<HotSpotsOutput>('analyzeHotSpots', { filters });

    const table = model.analyses.compStat;
    if (!table || 'refused' in table) throw new Error('no CompStat table');
    expect(table.areas).toEqual(cs.areas);
    expect(table.parameters).toEqual(cs.parameters);
    const all = table.areas[0]?.rows.find((r) => r.label === 'Total');
    expect(all?.cells[2]?.prior?.base).toBeGreaterThan(0); // the 28 days before are held
    // The seed holds 400 days: last year's year to date is not all held — a note, not a "vs 0".
    expect(all?.cells[3]?.yearAgo).toBeNull();
    expect(table.areas[0]?.notes.join(' ')).toMatch(
      /short where the archive lacks days, and not compared: year to date|No comparison with a year earlier for [^:]*year to date/,
    );

    const map = model.analyses.hotSpots;
    if (!map || 'refused' in map) throw new Error('no hot spot map');
    const significant = hs.geojson.features.filter((f) => f.properties.bin !== 0);
    expect(significant.length).toBeGreaterThan(0);
    expect(map.cells).toHaveLength(significant.length);
    expect(map.cells.filter((c) => c.bin === 3)).toHaveLength(
      significant.filter((f) => f.properties.bin === 3).length,
    );
    expect(Object.values(map.bins).reduce((a, b) => a + b, 0)).toBe(hs.geojson.features.length);
    expect(map.parameters).toMatchObject({
      grid: 'square',
      cell_size_m: hs.geojson.parameters.cell_size_m,
      distance_band_m: hs.geojson.parameters.distance_band_m,
      utm_epsg: hs.geojson.parameters.utm_epsg,
    });
    // A ring is [lat, lon] pairs inside Chicago (the map's own order), closed.
    const ring = map.cells[0]?.ring ?? [];
    expect(ring[0]).toEqual(ring.at(-1));
    expect(ring[0]?.[0]).toBeGreaterThan(41);
    expect(ring[0]?.[1]).toBeLessThan(-87);

    const { writeFileSync } = await import('node:fs');
    writeFileSync(started.print?.file as string, '%PDF-1.4\n% a tiny test file\n');
    await call('finishReport', { jobId: started.jobId, token: started.print?.token });
    const done = await finished(started.jobId);
    expect(done.state).toBe('done');
    const manifest = Manifest.parse(done.manifest);
    expect(manifest.file.analyses?.compStat).toMatchObject({
      parameters: cs.parameters,
      areas: [{ areaId: 1, area: 'Chicago' }],
    });
    // The headline as printed, traceable to its figures' parameters.
    expect(manifest.file.analyses?.bulletin).toMatchObject({
      place: 'Chicago',
      headline: model.bulletin.headline,
      zone: 'America/Chicago',
      nearRepeat: { spaceBands: [0, 200, 400], timeBandsDays: [0, 7, 14] },
    });
    expect(manifest.file.analyses?.hotSpots).toMatchObject({
      parameters: { cell_size_m: hs.geojson.parameters.cell_size_m, fdr: 'Benjamini-Hochberg' },
    });
  });

  it('counts the CompStat periods in full under a 30-day filter, and names the filters in its caption', async () => {
    const { started, model } = await reportWith(
      { hotSpotMap: false, compStat: true },
      { ...filters, preset: '30d', weekdays: [1, 2, 3, 4, 5] },
    );
    const full = await call<CompStatOutput>('analyzeCompStat', {
      filters: { ...filters, weekdays: [1, 2, 3, 4, 5] },
    });
    const table = model.analyses.compStat;
    if (!table || 'refused' in table) throw new Error('no CompStat table');
    // The year to date holds the year's weekdays, not the 30 days of the filter.
    expect(table.areas).toEqual(full.areas);
    const all = (a: typeof full.areas) => a[0]?.rows.find((r) => r.label === 'Total')?.cells ?? [];
    expect(all(table.areas)[3]?.current).toBeGreaterThan(all(table.areas)[2]?.current ?? Infinity);
    expect(table.filterWords).toEqual([
      'Types: all',
      'Weekdays: Monday, Tuesday, Wednesday, Thursday, Friday',
      'Area: Chicago',
      'Dates: not applied (each period is counted up to the as-of day)',
    ]);
    await call('cancelExport', { jobId: started.jobId });
  });

  it('prints CompStat’s table always (the bulletin’s), the hot spot map only when asked, and says in words when the incidents are too few', async () => {
    const plain = await reportWith({ hotSpotMap: false, compStat: false });
    expect(plain.model.analyses.hotSpots).toBeNull();
    const cs = await call<CompStatOutput>('analyzeCompStat', { filters });
    const table = plain.model.analyses.compStat;
    if (!table || 'refused' in table) throw new Error('no CompStat table');
    expect(table.areas).toEqual(cs.areas);
    // The headline still read the hot spots (its sentence names Gi*), though the map is not printed.
    expect(plain.model.bulletin.headline.join(' ')).toMatch(/Gi\*/);
    await call('cancelExport', { jobId: plain.started.jobId });

    const few = await reportWith(
      { hotSpotMap: true, compStat: true },
      { ...filters, types: ['Arson'], text: 'zzzz' },
    );
    expect(few.model.analyses.hotSpots).toEqual({
      refused: expect.stringContaining('at least 30 incidents'),
    });
    expect(few.model.analyses.compStat).toEqual({
      refused: expect.stringContaining('at least 30 incidents'),
    });
    expect(few.model.bulletin.tooFew).toBe(true);
    expect(few.model.bulletin.headline[0]).toMatch(/^Only \d+ incidents? in Chicago: too few to compare/);
    await call('cancelExport', { jobId: few.started.jobId });
  });
});

describe('the bulletin (issue 27, item 2)', () => {
  it('has a 12-week trend, Monday first, each week the count of its days, and a headline from the figures', async () => {
    const { started, model } = await reportWith(
      { hotSpotMap: false, compStat: false },
      {
        ...filters,
        preset: '30d',
      },
    );
    const b = model.bulletin;
    const last = model.range.to as string;
    expect(b.trend.interval).toBe('week');
    expect(b.trend.buckets).toHaveLength(12);
    for (const w of b.trend.buckets) {
      expect(new Date(`${w.start}T00:00:00Z`).getUTCDay()).toBe(1); // Monday
      const to = w.end < last ? w.end : last;
      const c = await call<CountResult>('countIncidents', {
        filters: { area: { areaId: 1 }, from: w.start, to },
      });
      expect(w.total, `${w.start}–${to}`).toBe(c.total);
    }
    const lastWeek = b.trend.buckets.at(-1);
    expect(lastWeek && lastWeek.start <= last && last <= lastWeek.end).toBe(true);

    expect(b.place).toBe('Chicago');
    expect(b.zone).toBe('America/Chicago');
    expect(b.labels).toEqual([{ name: 'Chicago', at: [expect.any(Number), expect.any(Number)] }]);
    expect(b.tooFew).toBe(false);
    expect(b.headline.length).toBeGreaterThan(1);
    expect(b.headline.length).toBeLessThanOrEqual(5);
    // The biggest rise is CompStat's own: its count and base in the sentence.
    const table = model.analyses.compStat;
    if (!table || 'refused' in table) throw new Error('no CompStat table');
    const k = table.areas[0]?.periods.findIndex((p) => p.key === 'last_7_days') ?? -1;
    const rises = (table.areas[0]?.rows ?? [])
      .filter((r) => r.kind === 'type' && (r.cells[k]?.prior?.change ?? 0) > 0)
      .sort((x, y) => (y.cells[k]?.prior?.change ?? 0) - (x.cells[k]?.prior?.change ?? 0));
    const top = rises[0];
    if (top)
      expect(b.headline).toContain(
        b.headline.find((h) =>
          h.startsWith(
            `${top.label} rose most: ${top.cells[k]?.current} in the last 7 days against ${top.cells[k]?.prior?.base} in the 7 before`,
          ),
        ),
      );
    expect(b.headline.join(' ')).toMatch(/rose most|fell most|No type changed/);
    await call('cancelExport', { jobId: started.jobId });
  });
});
