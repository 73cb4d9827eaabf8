/**
 * `blotter analyze …` as a process on a seeded archive: each analysis writes its file with the
 * parameters (defaults resolved) and provenance, prints them as its last stdout line, and refuses
 * below 30 incidents with exit 2.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDatabase } from '../../bench/seed';
import type { CompStatOutput } from '../../src-shared/analysis';
import { dbFileOf } from '../engine/dataDir';
import { makeTempDir, type TempDir } from '../engine/testing/tempDir';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
type Ran = { code: number; stdout: string; stderr: string };

function blotter(args: string[]): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src-main/cli/main.ts', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, BLOTTER_LOG_LEVEL: 'warn' },
        timeout: 120_000,
        maxBuffer: 64 << 20,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const lastJson = (text: string): Record<string, unknown> =>
  JSON.parse(text.trim().split('\n').at(-1) as string) as Record<string, unknown>;

let dir: TempDir;
let data: string;
// Chicago (area 1) over the whole archive.
const filters = ['--area-id', '1', '--preset', 'all'];

beforeAll(() => {
  dir = makeTempDir('blotter-cli-analyze-');
  data = `${dir.path}/data`;
  mkdirSync(data);
  seedDatabase(dbFileOf(data), { count: 4000, seed: 11, endDay: '2025-03-14', days: 200 });
});
afterAll(() => dir.remove());

describe('blotter analyze', () => {
  it('hotspots writes every computed cell with its statistic and the parameters, defaults printed', async () => {
    const out = `${dir.path}/hs.geojson`;
    const r = await blotter(['analyze', 'hotspots', '--data-dir', data, ...filters, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const summary = lastJson(r.stdout) as { incidents: number; parameters: Record<string, unknown> };
    const p = summary.parameters as { grid: string; cell_size_m: number; distance_band_m: number };
    expect(p.grid).toBe('square');
    expect(p.cell_size_m).toBeGreaterThanOrEqual(100);
    expect(p.distance_band_m).toBeCloseTo(2 * p.cell_size_m, 6);
    const fc = JSON.parse(readFileSync(out, 'utf8')) as {
      parameters: Record<string, unknown>;
      features: { properties: Record<string, number> }[];
    };
    expect(fc.parameters).toMatchObject({ grid: 'square', filters: { area: { areaId: 1 }, preset: 'all' } });
    expect(fc.parameters.coverage).toMatchObject({ areas: [{ id: 1, name: 'Chicago' }] });
    for (const f of fc.features)
      expect(Object.keys(f.properties).sort()).toEqual(['bin', 'col', 'count', 'gi_z', 'p', 'p_fdr', 'row']);
    const counted = fc.features.reduce((s, f) => s + (f.properties.count as number), 0);
    expect(counted).toBeGreaterThan(0.9 * summary.incidents);
    expect(counted).toBeLessThanOrEqual(summary.incidents);

    const hex = await blotter([
      'analyze',
      'hotspots',
      '--data-dir',
      data,
      ...filters,
      '--grid',
      'hexagon',
      '--cell-size-m',
      '800',
      '--out',
      `${dir.path}/hex.geojson`,
    ]);
    expect(hex.code, hex.stderr).toBe(0);
    expect(lastJson(hex.stdout).parameters).toMatchObject({
      grid: 'hexagon',
      cell_size_m: 800,
      distance_band_m: 1600,
    });
  });

  it('kde writes a GeoTIFF gdalinfo reads as EPSG:4326 with nodata 0, and a GeoJSON grid', async () => {
    const tif = `${dir.path}/k.tif`;
    const r = await blotter([
      'analyze',
      'kde',
      '--data-dir',
      data,
      ...filters,
      '--radius-m',
      '1000',
      '--format',
      'geotiff',
      '--out',
      tif,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(lastJson(r.stdout).parameters).toMatchObject({
      radius_m: 1000,
      cell_size_m: 100,
      units: 'incidents per square mile',
    });
    const info = execFileSync('gdalinfo', [tif], { encoding: 'utf8' });
    expect(info).toMatch(/ID\["EPSG",4326\]/);
    expect(info).toMatch(/NoData Value=0/);
    const gj = `${dir.path}/k.geojson`;
    const g = await blotter([
      'analyze',
      'kde',
      '--data-dir',
      data,
      ...filters,
      '--format',
      'geojson',
      '--out',
      gj,
    ]);
    expect(g.code, g.stderr).toBe(0);
    const fc = JSON.parse(readFileSync(gj, 'utf8')) as {
      parameters: { radius_default: boolean };
      features: unknown[];
    };
    expect(fc.parameters.radius_default).toBe(true);
    expect(fc.features.length).toBeGreaterThan(0);
  });

  it('near-repeat writes the Knox table, the same bytes for the same seed', async () => {
    const run = (out: string) =>
      blotter([
        'analyze',
        'near-repeat',
        '--data-dir',
        data,
        ...filters,
        '--space-bands-ft',
        '0,400,800',
        '--time-bands-days',
        '0,7,14',
        '--iterations',
        '19',
        '--seed',
        '7',
        '--out',
        out,
      ]);
    const [a, b] = await Promise.all([run(`${dir.path}/nr1.json`), run(`${dir.path}/nr2.json`)]);
    expect(a.code, a.stderr).toBe(0);
    expect(lastJson(a.stdout).parameters).toMatchObject({ space_unit: 'ft', iterations: 19, seed: 7 });
    const one = JSON.parse(readFileSync(`${dir.path}/nr1.json`, 'utf8')) as {
      cells: unknown[];
      summary: string[];
      provenance: unknown;
    };
    expect(one.cells).toHaveLength(4);
    expect(one.summary.length).toBeGreaterThan(0);
    expect(one.provenance).toMatchObject({ filters: { area: { areaId: 1 } } });
    const strip = (t: string) => t.replace(/"createdAt": "[^"]+"/, '');
    expect(strip(readFileSync(`${dir.path}/nr1.json`, 'utf8'))).toBe(
      strip(readFileSync(`${dir.path}/nr2.json`, 'utf8')),
    );
    expect(b.code).toBe(0);
    const bad = await blotter([
      'analyze',
      'near-repeat',
      '--data-dir',
      data,
      '--space-bands-m',
      '0,120',
      '--space-bands-ft',
      '0,400',
      '--time-bands-days',
      '0,7',
      '--out',
      `${dir.path}/x.json`,
    ]);
    expect(bad.code).toBe(2);
  });

  it('compstat writes CSV rows per area, row, period and comparison, and the same table as JSON, as of a day; below 30 incidents it refuses (exit 2)', async () => {
    const out = `${dir.path}/cs.csv`;
    const r = await blotter([
      'analyze',
      'compstat',
      '--data-dir',
      data,
      ...filters,
      '--as-of',
      '2025-03-14',
      '--format',
      'csv',
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const lines = readFileSync(out, 'utf8').split('\r\n');
    const header = lines.findIndex((l) => l.startsWith('area,'));
    expect(lines[header]).toBe(
      'area,layer,feature_id,zone,today,row,row_kind,period,current_from,current_to,current,comparison,base_from,base_to,compared,base,change,percent_change',
    );
    // The total's week to date: against the same weekdays of the week before and a year earlier.
    const total = lines.filter((l) =>
      l.startsWith('Chicago,,,America/Chicago,2025-03-14,Total,total,Week to date,2025-03-10,2025-03-14,'),
    );
    expect(total).toHaveLength(2);
    expect(total[0]).toMatch(/,days before,2025-03-03,2025-03-07,true,\d+,-?\d+,/);
    // The archive holds 200 days: nothing a year earlier.
    expect(total[1]).toMatch(/,year earlier,2024-03-11,2024-03-15,false,,,$/);
    // A comparison the archive cannot make has no numbers (not "vs 0"), and a note says so.
    for (const l of lines.filter((x) => x.includes(',false,'))) expect(l).toMatch(/,false,,,$/);
    expect(lines).toContain(
      '# note (Chicago): No comparison with a year earlier: the archive does not hold all of those days (from 2024-01-01).',
    );
    for (const group of ['Violent,group', 'Property,group', 'Arrest,type', 'Other,type'])
      expect(lines.some((l) => l.includes(`,${group},Year to date,`))).toBe(true);

    // JSON: the same table, one per area, its notes beside it.
    const json = `${dir.path}/cs.json`;
    const j = await blotter([
      'analyze',
      'compstat',
      '--data-dir',
      data,
      ...filters,
      '--as-of',
      '2025-03-14',
      '--format',
      'json',
      '--out',
      json,
    ]);
    expect(j.code, j.stderr).toBe(0);
    const file = JSON.parse(readFileSync(json, 'utf8')) as CompStatOutput;
    expect(file.areas.map((a) => a.area)).toEqual(['Chicago']);
    expect(file.areas[0]!.rows.at(-1)!.label).toBe('Total');
    expect(Array.isArray(file.areas[0]!.notes)).toBe(true);

    const few = await blotter([
      'analyze',
      'compstat',
      '--data-dir',
      data,
      '--types',
      'Arson',
      '--text',
      'zzzz',
      '--format',
      'json',
      '--out',
      `${dir.path}/few.json`,
    ]);
    expect(few.code).toBe(2);
    expect(few.stderr).toMatch(/CompStat needs at least 30 incidents/);

    // An impossible as-of day is refused, named, before any work (exit 2).
    const impossible = await blotter([
      'analyze',
      'compstat',
      '--data-dir',
      data,
      ...filters,
      '--as-of',
      '2025-02-30',
      '--format',
      'json',
      '--out',
      `${dir.path}/bad.json`,
    ]);
    expect(impossible.code).toBe(2);
    expect(impossible.stderr).toContain('2025-02-30 is not a day of the calendar');
  });
});
