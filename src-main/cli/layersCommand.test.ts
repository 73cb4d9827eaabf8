/**
 * `blotter layers` as a process: a beats GeoJSON and a schools file kept as layers, listed, and
 * counted — inside each beat, within 1,000 ft of each school — equal to the exported GeoJSON's
 * incidents tested by hand (even–odd, and UTM metres from proj4), with the export's filters.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import proj4 from 'proj4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeatureFilter } from '../../src-shared/filters';
import { startSimulator, type Simulator } from '../../src-sim/index';
import { createInProcessEngine } from '../engine/index';
import { createMemorySecretStore } from '../engine/secrets/memorySecretStore';
import { makeTempDir, type TempDir } from '../engine/testing/tempDir';
import { runCli, syncArgs } from './cliTesting';

const KEY = 'cli-layers-key-4242';
let sim: Simulator;
let dir: TempDir;
let points: { lat: number; lon: number; type: string }[];

beforeAll(async () => {
  sim = await startSimulator({
    seed: 9,
    scale: 40_000,
    spanDays: 20,
    keys: [{ key: KEY, plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: 6000, windowDays: 30 }],
  });
  dir = makeTempDir('blotter-cli-layers-');
  expect((await runCli(KEY, syncArgs(dir.path, sim.url, '41.874,-87.64,0.5'))).code).toBe(0);
  points = (await exported('all', [])).map((f) => ({
    lon: f.geometry.coordinates[0],
    lat: f.geometry.coordinates[1],
    type: f.properties.type,
  }));
  expect(points.length).toBeGreaterThan(50);
}, 120_000);
afterAll(async () => {
  await sim.close();
  dir.remove();
});

type Exported = { geometry: { coordinates: [number, number] }; properties: { type: string } };

/** `export --format geojson --preset all` with `filters` into DIR/NAME.geojson: its features. */
async function exported(name: string, filters: string[]): Promise<Exported[]> {
  const out = `${dir.path}/${name}.geojson`;
  const r = await runCli(KEY, [
    'export',
    '--data-dir',
    dir.path,
    '--format',
    'geojson',
    '--preset',
    'all',
    ...filters,
    '--out',
    out,
  ]);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(readFileSync(out, 'utf8')) as { features: Exported[] }).features;
}

const cli = (args: string[]) => runCli(KEY, ['layers', ...args, '--data-dir', dir.path]);
const lastJson = (stdout: string) => JSON.parse(stdout.trimEnd().split('\n').at(-1) as string);

function evenOdd(lat: number, lon: number, ring: [number, number][]): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

describe('blotter layers', () => {
  it('imports beats, lists them, and counts inside each beat as the export holds them', async () => {
    const beats = [0, 1].map((k) => {
      const w = -87.65 + k * 0.01;
      const ring: [number, number][] = [
        [w, 41.866],
        [w + 0.01, 41.866],
        [w + 0.01, 41.882],
        [w, 41.882],
        [w, 41.866],
      ];
      return { name: `Beat ${k + 1}`, ring };
    });
    const file = `${dir.path}/beats.geojson`;
    writeFileSync(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: beats.map((b) => ({
          type: 'Feature',
          properties: { BEAT: b.name },
          geometry: { type: 'Polygon', coordinates: [b.ring] },
        })),
      }),
    );
    const imported = await cli(['import', file, '--name', 'Beats']);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(lastJson(imported.stdout)).toMatchObject({ name: 'Beats', features: 2 });
    const listed = await cli(['list']);
    expect(listed.stdout).toMatch(/^1\tBeats\t2 features \(polygons\)\tfrom beats\.geojson\tEPSG:4326$/m);

    const type = points[0]!.type;
    const counted = await cli(['count', '--layer', 'beats', '--preset', 'all', '--types', type]);
    expect(counted.code).toBe(0);
    const json = lastJson(counted.stdout);
    const expected = beats.map(
      (b) => points.filter((p) => p.type === type && evenOdd(p.lat, p.lon, b.ring)).length,
    );
    expect(json.features.map((f: { count: number }) => f.count)).toEqual(expected);
    expect(json.total).toBe(expected[0]! + expected[1]!); // beats do not overlap
    expect(json.total).toBeGreaterThan(0);
    expect(json.filtered).toBe(points.filter((p) => p.type === type).length);
    expect(counted.stdout).toContain(
      `${json.total} of ${json.filtered} matching incidents are inside a feature of "Beats"`,
    );

    // CompStat by beat (issue 27): `--layer beats` without --feature is one table per feature,
    // each counting the incidents inside its beat (the year to date holds the whole archive).
    const out = `${dir.path}/beats.compstat.json`;
    const cs = await runCli(KEY, [
      'analyze',
      'compstat',
      '--data-dir',
      dir.path,
      '--layer',
      'beats',
      '--format',
      'json',
      '--out',
      out,
    ]);
    expect(cs.code, cs.stderr).toBe(0);
    const tables = (
      JSON.parse(readFileSync(out, 'utf8')) as {
        areas: {
          area: string;
          feature: { layer: string };
          rows: { label: string; cells: { current: number }[] }[];
        }[];
      }
    ).areas;
    expect(tables.map((t) => [t.area, t.feature.layer])).toEqual([
      ['Beat 1', 'Beats'],
      ['Beat 2', 'Beats'],
    ]);
    expect(tables.map((t) => t.rows.at(-1)!.cells[3]!.current)).toEqual(
      beats.map((b) => points.filter((p) => evenOdd(p.lat, p.lon, b.ring)).length),
    );
  }, 60_000);

  it('counts within 1,000 ft of each school, each incident once', async () => {
    const schools = [points[3]!, points[Math.floor(points.length / 2)]!];
    const file = `${dir.path}/schools.geojson`;
    writeFileSync(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: schools.map((s, k) => ({
          type: 'Feature',
          properties: { NAME: `School ${k + 1}` },
          geometry: { type: 'Point', coordinates: [s.lon, s.lat] },
        })),
      }),
    );
    expect((await cli(['import', file, '--name', 'Schools'])).code).toBe(0);
    const r = await cli(['count', '--layer', 'Schools', '--buffer-ft', '1,000', '--preset', 'all']);
    expect(r.code).toBe(0);
    const json = lastJson(r.stdout);
    const utm = proj4('EPSG:4326', '+proj=utm +zone=16 +datum=WGS84 +units=m +no_defs');
    const xy = (p: { lat: number; lon: number }) => utm.forward([p.lon, p.lat]) as [number, number];
    const near = (p: { lat: number; lon: number }, s: { lat: number; lon: number }) => {
      const [a, b] = xy(p);
      const [c, d] = xy(s);
      return Math.hypot(a - c, b - d) <= 304.8;
    };
    expect(json.features.map((f: { count: number }) => f.count)).toEqual(
      schools.map((s) => points.filter((p) => near(p, s)).length),
    );
    expect(json.total).toBe(points.filter((p) => schools.some((s) => near(p, s))).length);
    expect(json.bufferM).toBeCloseTo(304.8, 6);
    expect(json.total).toBeGreaterThan(0);
    expect(r.stdout).toContain('within 1,000 ft of a feature of "Schools"');
  }, 60_000);

  it('makes one beat, chosen by name, an area to sync', async () => {
    const made = await cli(['import', `${dir.path}/beats.geojson`, '--as-areas', '--feature', 'beat 2']);
    expect(made.code).toBe(0);
    expect(lastJson(made.stdout).areas.map((a: { name: string }) => a.name)).toEqual(['Beat 2']);
    const areas = await runCli(KEY, ['areas', 'list', '--data-dir', dir.path]);
    expect(areas.stdout).toMatch(/\tBeat 2\tpolygon/);
    const unknown = await cli(['import', `${dir.path}/beats.geojson`, '--as-areas', '--feature', 'Beat 9']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No feature is named "beat 9" by BEAT');
  }, 60_000);

  it('export and analyze filter by one feature, --layer/--feature/--buffer-ft, as the app counts it', async () => {
    // The app's engine on the same folder gives the count the map shows for the same filter.
    const engine = await createInProcessEngine({
      dataDir: dir.path,
      host: 'web',
      version: '0.0.0-test',
      secrets: createMemorySecretStore(),
      logFile: null,
      scheduler: false,
    });
    const appCount = async (feature: FeatureFilter): Promise<number> => {
      const r = await engine.call('countIncidents', { filters: { preset: 'all', feature } });
      if (!r.ok) throw new Error(r.error.message);
      return r.value.total;
    };
    try {
      const listed = await engine.call('getLayerFeatures', { layerId: 1 });
      if (!listed.ok) throw new Error(listed.error.message);
      const beat1 = listed.value.features.find((f) => f.name === 'Beat 1')!;
      const beat1Export = async (extra: string[]) =>
        (await exported(`beat1${extra.join('')}`, ['--layer', 'beats', '--feature', 'beat 1', ...extra]))
          .length;
      const inside = await appCount({ layerId: 1, featureId: beat1.id });
      expect(inside).toBeGreaterThan(0);
      expect(inside).toBeLessThan(points.length);
      expect(await beat1Export([])).toBe(inside);
      const near = await appCount({ layerId: 1, featureId: beat1.id, bufferM: 500 * 0.3048, unit: 'ft' });
      expect(near).toBeGreaterThan(inside);
      expect(await beat1Export(['--buffer-ft', '500'])).toBe(near);

      // analyze follows the same flags: the incidents it analysed are the app's count.
      const analyzed = await runCli(KEY, [
        'analyze',
        'compstat',
        '--data-dir',
        dir.path,
        '--preset',
        'all',
        '--layer',
        '1',
        '--feature',
        'Beat 1',
        '--buffer-m',
        '2000',
        '--format',
        'json',
        '--out',
        `${dir.path}/beat.compstat.json`,
      ]);
      expect(analyzed.code, analyzed.stderr).toBe(0);
      expect(lastJson(analyzed.stdout).incidents).toBe(
        await appCount({ layerId: 1, featureId: beat1.id, bufferM: 2000, unit: 'm' }),
      );
      // One table, named after the beat (not one per synced area), counting the same incidents.
      const beatTables = (
        JSON.parse(readFileSync(`${dir.path}/beat.compstat.json`, 'utf8')) as {
          areas: { area: string; feature: { layer: string }; rows: { cells: { current: number }[] }[] }[];
        }
      ).areas;
      expect(beatTables.map((t) => [t.area, t.feature.layer])).toEqual([['Beat 1', 'Beats']]);
      expect(beatTables[0]!.rows.at(-1)!.cells[3]!.current).toBe(lastJson(analyzed.stdout).incidents);
    } finally {
      await engine.close();
    }

    const csv = (filters: string[]) =>
      runCli(KEY, ['export', '--data-dir', dir.path, '--format', 'csv', ...filters]);
    const unknown = await csv(['--layer', 'Beats', '--feature', 'Beat 9']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('"Beats" has no feature named "Beat 9" (it has "Beat 1", "Beat 2")');
    const alone = await csv(['--feature', 'Beat 1']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--feature needs --layer');
  }, 120_000);

  it('refuses a zip whose entries lead out of its folder, exit 2 with the reason', async () => {
    // A zip whose only entry is named ../evil.shp (local header, central directory, end record).
    const name = Buffer.from('../evil.shp');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(name.length, 28);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(1, 8);
    end.writeUInt16LE(1, 10);
    end.writeUInt32LE(46 + name.length, 12);
    end.writeUInt32LE(30 + name.length, 16);
    const file = `${dir.path}/evil.zip`;
    writeFileSync(file, Buffer.concat([local, name, central, name, end]));
    const r = await cli(['import', file, '--name', 'Evil']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/evil\.zip: The zip cannot be read: it holds an entry named "\.\.\/evil\.shp"/);
  });
});
