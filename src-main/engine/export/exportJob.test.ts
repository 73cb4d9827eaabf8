import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXPORT_COLUMN_NAMES, Manifest, type StartExportOutput } from '../../../src-shared/exports';
import { CsvRecordReader } from '../import/csvRecords';
import {
  apiRow,
  exportFinished,
  openTestEngine,
  TRICKY,
  writeIncidents,
  type TestEngine,
} from './exportTesting';
import { exportsDirOf } from '../files/destination';
import { createDataRunner } from './dataExport';
import { ExportJobs, type Runner } from './jobs';

let t: TestEngine;

beforeEach(() => {
  t = openTestEngine();
  writeIncidents(t.db, [
    ...TRICKY,
    ...Array.from({ length: 3000 }, (_, k) => apiRow(100 + k, { lat: 40.7 + (k % 10) / 100, lon: -74 })),
  ]);
  t.db.prepare('UPDATE incidents SET removed_at = 1, removed_reason = ? WHERE cdid = 4').run('gone');
});
afterEach(() => t.close());

async function call<T>(name: string, input: unknown): Promise<T> {
  const result = await t.engine.dispatch(name, input);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

async function exportTo(input: Record<string, unknown>) {
  const started = await call<StartExportOutput>('startExport', input);
  const done = await t.waitFor(exportFinished(started.jobId));
  return { started, done };
}

const csvRows = (text: string): string[][] => {
  const reader = new CsvRecordReader();
  return [...reader.push(text), ...reader.end()];
};

describe('CSV export', () => {
  it('writes exactly the filtered set, quoted per RFC 4180, formula cells neutralised, BOM first', async () => {
    const { total } = await call<{ total: number }>('countIncidents', { filters: { preset: 'all' } });
    const { started, done } = await exportTo({ format: 'csv', filters: { preset: 'all' }, bom: true });
    expect(done.state).toBe('done');
    expect(started.total).toBe(total);
    const file = done.file?.path as string;
    expect(path.dirname(file)).toBe(exportsDirOf(t.dir.path));
    const text = readFileSync(file, 'utf8');
    expect(
      text.startsWith('\uFEFFcdid,type,occurred_local,timezone,occurred_utc,date_raw,address,lat,lon,link'),
    ).toBe(true);
    const rows = csvRows(text.slice(1));
    expect(rows[0]).toEqual([...EXPORT_COLUMN_NAMES]);
    expect(rows).toHaveLength(1 + total);
    expect(total).toBe(TRICKY.length - 1 + 3000); // 4 is removed
    const byId = new Map(rows.slice(1).map((r) => [r[0], r]));
    expect(byId.get('1')?.[6]).toBe(`'=HYPERLINK("http://evil.example")`);
    expect(byId.get('2')?.[6]).toBe('Main St, "Apt 4"\r\nrear');
    expect(byId.get('3')?.[6]).toBe("'+1 Block");
    expect(byId.get('5')?.[6]).toBe("'-minus");
    expect(byId.get('6')?.[6]).toBe("'\tTabbed");
    expect(byId.get('7')?.[6]).toBe("'\rReturn");
    expect(byId.get('8')?.[6]).toBe('Ünïcödé Straße 北京 🚓');
    expect(byId.has('4')).toBe(false);
    const one = byId.get('1') as string[];
    expect(one.slice(1, 6)).toEqual([
      'Assault',
      '2025-05-10T13:30',
      'America/Chicago',
      '2025-05-10T18:30:00.000Z',
      '05/10/25 01:30 PM',
    ]);
    expect([one[7], one[8], one[9], one[10], one[13]]).toEqual([
      '41.88',
      '-87.63',
      'https://crime.example.test/incident/1',
      '',
      'false',
    ]);
    expect(one[11]).toBe(new Date(1_750_000_000_000).toISOString());
    expect(text).toContain('"Main St, ""Apt 4""\r\nrear"');
  });

  it('follows the filters exactly as countIncidents does', async () => {
    for (const filters of [
      { preset: 'all', types: ['Assault', 'Arrest'] },
      { from: '2025-05-11', to: '2025-05-19' },
      { preset: 'all', area: { circle: { lat: 41.95, lon: -87.7, radiusMi: 0.5 } } },
      { preset: 'all', text: 'synthetic' },
      { preset: 'all', includeRemoved: true, hours: [23, 24] },
    ]) {
      const { total } = await call<{ total: number }>('countIncidents', { filters });
      const { done } = await exportTo({ format: 'csv', filters });
      const rows = csvRows(readFileSync(done.file?.path as string, 'utf8'));
      expect(rows.length - 1, JSON.stringify(filters)).toBe(total);
      expect(done.manifest?.counts.written).toBe(total);
    }
  });

  it('writes a manifest beside the file: filters, counts, provenance, version; never the key', async () => {
    await call('setApiKey', { key: 'SECRET-KEY-abc123' });
    const { done } = await exportTo({ format: 'csv', filters: { preset: 'all', types: ['Theft'] } });
    const file = done.file?.path as string;
    const manifestFile = file.replace(/\.csv$/, '.manifest.json');
    const text = readFileSync(manifestFile, 'utf8');
    expect(text).not.toContain('SECRET-KEY');
    const manifest = Manifest.parse(JSON.parse(text));
    expect(manifest).toMatchObject({
      kind: 'blotter-export',
      app: { name: 'Blotter', version: '9.8.7' },
      format: 'csv',
      file: { name: path.basename(file), bom: false, columns: [...EXPORT_COLUMN_NAMES] },
      filters: { preset: 'all', types: ['Theft'] },
      counts: { total: 3005, written: 3005, byType: { Theft: 3005 } },
    });
    expect(manifest.file.bytes).toBe(readFileSync(file).length);
    expect(manifest.filterWords).toContain('Types: Theft');
    expect(manifest.provenance.notes.join(' ')).toMatch(/block-level/);
    expect(manifest.provenance.notes.join(' ')).toMatch(/provisional/);
    expect(manifest.provenance.plan).toMatchObject({ id: 'developer', windowDays: 90 });
    expect(done.file?.manifestName).toBe(path.basename(manifestFile));
  });

  it('writes to the path the host chose, and refuses a folder that does not exist', async () => {
    const target = path.join(t.dir.path, 'chosen.csv');
    const { done } = await exportTo({
      format: 'csv',
      filters: { types: ['Arrest'], preset: 'all' },
      destination: { path: target },
    });
    expect(done.file?.path).toBe(target);
    expect(existsSync(path.join(t.dir.path, 'chosen.manifest.json'))).toBe(true);
    const refused = await t.engine.dispatch('startExport', {
      format: 'csv',
      filters: {},
      destination: { path: path.join(t.dir.path, 'nope', 'x.csv') },
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'bad_input' } });
  });

  it('cancels: the partial file is removed and no file appears', async () => {
    writeIncidents(
      t.db,
      Array.from({ length: 30_000 }, (_, k) => apiRow(10_000 + k)),
    );
    const started = await call<StartExportOutput>('startExport', {
      format: 'csv',
      filters: { preset: 'all' },
    });
    const { cancelled } = await call<{ cancelled: boolean }>('cancelExport', { jobId: started.jobId });
    expect(cancelled).toBe(true);
    const done = await t.waitFor(exportFinished(started.jobId));
    expect(done.state).toBe('cancelled');
    expect(readdirSync(exportsDirOf(t.dir.path))).toEqual([]);
    expect(await call('cancelExport', { jobId: started.jobId })).toEqual({ cancelled: false });
  });

  it('a manifest that cannot be written leaves no data file either', async () => {
    const folder = path.join(t.dir.path, 'out');
    mkdirSync(path.join(folder, 'report.manifest.json', 'in the way'), { recursive: true });
    const { done } = await exportTo({
      format: 'csv',
      filters: { preset: 'all' },
      destination: { path: path.join(folder, 'report.csv') },
    });
    expect(done.state).toBe('failed');
    // Before, report.csv stood there without its manifest.
    expect(readdirSync(folder)).toEqual(['report.manifest.json']);
  });

  it('cancelled after the rows are written but before the manifest: neither file appears', async () => {
    const data = createDataRunner();
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let written: Promise<unknown> = Promise.resolve();
    // The rows are all written; the runner hands the file over only once the cancel has come.
    const gated: Runner = (job, ctx, progress) => {
      const run = data(job, ctx, progress);
      written = run.done;
      return { ...run, done: run.done.then(async (r) => (await gate, r)) };
    };
    const jobs = new ExportJobs(t.engine.context, t.engine.context.services.query, {
      csv: gated,
      geojson: gated,
      gpkg: gated,
      shp: gated,
      kml: gated,
      pdf: gated,
    });
    const started = await jobs.start({ format: 'csv', filters: { preset: 'all' } });
    const finished = t.waitFor(exportFinished(started.jobId));
    expect(await written).toMatchObject({ written: started.total });
    const cancelling = jobs.cancel(started.jobId);
    release();
    expect(await cancelling).toBe(true);
    expect((await finished).state).toBe('cancelled');
    expect(readdirSync(exportsDirOf(t.dir.path))).toEqual([]);
  });

  it('reports progress as it goes', async () => {
    const { started } = await exportTo({ format: 'csv', filters: { preset: 'all' } });
    const mine = t.events.filter((e) => e.type === 'exportProgress' && e.jobId === started.jobId);
    expect(mine[0]).toMatchObject({ state: 'running', done: 0, total: started.total });
    expect(mine.at(-1)).toMatchObject({ state: 'done', done: started.total });
  });
});

describe('GeoJSON export', () => {
  it('writes one FeatureCollection with the export columns as properties', async () => {
    const { done } = await exportTo({
      format: 'geojson',
      filters: { preset: 'all', types: ['Assault', 'Arrest'] },
    });
    const json = JSON.parse(readFileSync(done.file?.path as string, 'utf8')) as {
      type: string;
      features: {
        type: string;
        geometry: { type: string; coordinates: number[] };
        properties: Record<string, unknown>;
      }[];
    };
    expect(json.type).toBe('FeatureCollection');
    expect(json.features.map((f) => f.properties.cdid)).toEqual([1, 5]);
    const [first] = json.features;
    expect(first?.geometry).toEqual({ type: 'Point', coordinates: [-87.63, 41.88] });
    expect(Object.keys(first?.properties ?? {}).sort()).toEqual([...EXPORT_COLUMN_NAMES].sort());
    expect(first?.properties).toMatchObject({
      address: '=HYPERLINK("http://evil.example")',
      removed: false,
      description: null,
    });
  });

  it('writes an empty collection for a filter that matches nothing', async () => {
    const { done } = await exportTo({ format: 'geojson', filters: { types: ['Nothing'] } });
    expect(JSON.parse(readFileSync(done.file?.path as string, 'utf8'))).toEqual({
      type: 'FeatureCollection',
      features: [],
    });
  });
});
