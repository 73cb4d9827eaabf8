/**
 * `blotter export --format gpkg|shp|kml` as a process: the same rows as the CSV export, each file
 * opened by GDAL (ogrinfo, what QGIS reads with); gpkg and shp refuse to run without --out.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src-sim/index';
import { makeTempDir, type TempDir } from '../engine/testing/tempDir';
import { runCli, syncArgs, type Ran } from './cliTesting';

const KEY = 'cli-gis-key-4242';
let sim: Simulator;
let dir: TempDir;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 9,
    scale: 40_000,
    spanDays: 20,
    keys: [{ key: KEY, plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: 6000, windowDays: 30 }],
  });
  dir = makeTempDir('blotter-cli-gis-');
  const r = await runCli(KEY, syncArgs(dir.path, sim.url, '41.874,-87.64,0.5'));
  expect(r.code).toBe(0);
}, 120_000);
afterAll(async () => {
  await sim.close();
  dir.remove();
});

const cli = (args: string[]): Promise<Ran> => runCli(KEY, ['export', '--data-dir', dir.path, ...args]);

describe('blotter export to GIS formats', () => {
  // Four and five CLI processes (each compiling through tsx) with ogrinfo between: 18–19 s each when
  // the suite ran on a loaded 2-core machine, too near the default 30 s.
  it('writes GeoPackage, zipped Shapefile and KML with as many features as the CSV has rows', async () => {
    const csv = `${dir.path}/all.csv`;
    expect((await cli(['--format', 'csv', '--out', csv])).code).toBe(0);
    const rows = readFileSync(csv, 'utf8').trimEnd().split('\r\n').length - 1;
    expect(rows).toBeGreaterThan(10);
    const count = (source: string, layer: string) =>
      Number(/Feature Count: (\d+)/.exec(execFileSync('ogrinfo', ['-so', source, layer]).toString())?.[1]);
    for (const [format, file, source, layer] of [
      ['gpkg', 'all.gpkg', 'all.gpkg', 'incidents'],
      ['shp', 'all.zip', '/vsizip/all.zip', 'all'],
      ['kml', 'all.kml', 'all.kml', 'Incidents'],
    ] as const) {
      const r = await cli(['--format', format, '--out', `${dir.path}/${file}`]);
      expect(r.code, r.stderr).toBe(0);
      const at = source.replace(file, `${dir.path}/${file}`);
      expect(count(at, layer), format).toBe(rows);
      // The key the sync used is in no byte of the file (a zip's members read inflated) or manifest.
      const bytes =
        format === 'shp' ? execFileSync('unzip', ['-p', `${dir.path}/${file}`]) : readFileSync(at);
      expect(bytes.includes(KEY), format).toBe(false);
      expect(readFileSync(`${dir.path}/all.manifest.json`, 'utf8')).not.toContain(KEY);
      const manifest = JSON.parse(readFileSync(`${dir.path}/all.manifest.json`, 'utf8'));
      expect(manifest.format).toBe(format);
      expect(manifest.file.crs).toBe('EPSG:4326');
    }
  }, 120_000);

  it('a missing folder or a folder as the file (exit 2), or one Blotter may not write in (exit 1) is named in one line, and nothing is left', async () => {
    const missing = await cli(['--format', 'gpkg', '--out', `${dir.path}/no-such-folder/all.gpkg`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe(`blotter: The folder ${dir.path}/no-such-folder does not exist.`);
    const folder = await cli(['--format', 'shp', '--out', dir.path]);
    expect(folder.code).toBe(2);
    expect(folder.stderr.trim()).toBe(`blotter: ${dir.path} is a folder: give the export a file name in it.`);
    const before = readdirSync('/sys');
    for (const ext of ['gpkg', 'zip', 'kml']) {
      const format = ext === 'zip' ? 'shp' : ext;
      const r = await cli(['--format', format, '--out', `/sys/all.${ext}`]);
      expect(r.code, format).toBe(1);
      // sysfs refuses a new file even to root: EPERM/EACCES, or EROFS where it is mounted read-only.
      expect(r.stderr.trim().split('\n'), format).toEqual([
        expect.stringMatching(
          /^blotter: Blotter cannot write in \/sys on this computer \((permission denied|it is read-only)\): the export was not written\. Choose another folder, then export again\.$/,
        ),
      ]);
    }
    expect(readdirSync('/sys')).toEqual(before);
  }, 120_000);

  it('refuses gpkg and shp without --out (exit 2, one line), and formats it does not know', async () => {
    for (const args of [
      ['--format', 'gpkg'],
      ['--format', 'shp'],
      ['--format', 'xlsx'],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stdout).toBe('');
    }
  });
});
