import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src-sim/index';
import { makeTempDir, type TempDir } from '../engine/testing/tempDir';
import { lastJson, runCli, syncArgs as syncOf, type Ran } from './cliTesting';

const KEY = 'cli-test-key-7777';
let sim: Simulator;
let dir: TempDir;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 5,
    scale: 40_000,
    spanDays: 45,
    keys: [
      { key: KEY, plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: 6000, windowDays: 30 },
      { key: 'elsewhere-key-1', plan: 'developer', ips: ['198.51.100.4'] },
    ],
  });
  dir = makeTempDir('blotter-cli-');
});
afterAll(async () => {
  await sim.close();
  dir.remove();
});

const cli = (args: string[], env: Record<string, string> = {}): Promise<Ran> => runCli(KEY, args, { env });

const specials = { lat: 41.874, lon: -87.64, radiusMi: 0.6 };
const syncArgs = () => syncOf(dir.path, sim.url, `${specials.lat},${specials.lon},${specials.radiusMi}`);

describe('blotter sync', () => {
  it('mirrors the area, exits 0 and ends stdout with the JSON summary', async () => {
    const r = await cli(syncArgs());
    expect(r.stderr).toMatch(/^\d\d:\d\d:\d\d plan: area 1 backfill/m);
    expect(r.code).toBe(0);
    const summary = lastJson(r.stdout);
    for (const k of [
      'requests',
      'incidents',
      'new',
      'updated',
      'removed',
      'rateLimited',
      'seconds',
      'lowerBoundRequests',
      'fairLowerBound',
    ]) {
      expect(typeof summary[k], k).toBe('number');
    }
    const truth = sim.groundTruth({ ...specials, key: KEY });
    expect(summary.incidents).toBe(truth.length);
    expect(summary.new).toBe(truth.length);
    expect(summary.rateLimited).toBe(0);
    expect(summary.fairLowerBound).toBe(Math.max(1, Math.ceil(truth.length / 500)));
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('refreshes on the next run', async () => {
    const r = await cli(syncArgs());
    expect(r.code).toBe(0);
    expect(lastJson(r.stdout)).toMatchObject({ new: 0, removed: 0 });
    expect(r.stderr).toMatch(/refresh/);
  });

  it('says to re-enter the key on 401 and exits 3', async () => {
    const r = await cli(syncArgs(), { BLOTTER_API_KEY: 'wrong-key-12345' });
    expect(r.code).toBe(3);
    const lines = r.stderr
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('blotter:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/Re-enter the key/);
    expect(r.stderr + r.stdout).not.toContain('wrong-key-12345');
  });

  it("says the IP is not on the key's allowlist on 403 and exits 4", async () => {
    const r = await cli(syncArgs(), { BLOTTER_API_KEY: 'elsewhere-key-1' });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^blotter: .*allowlist.*static IP/m);
  });

  it('refuses bad arguments with one line and exit 2', async () => {
    for (const args of [
      ['sync', '--data-dir', dir.path, '--base-url', sim.url, '--plan', 'gold', '--area', '1,2,3'],
      ['sync', '--data-dir', dir.path, '--base-url', sim.url, '--plan', 'developer', '--area', '41.8,-87.6'],
      ['sync', '--data-dir', dir.path, '--base-url', sim.url, '--plan', 'developer'],
      ['export', '--data-dir', dir.path, '--format', 'xlsx'],
      ['export', '--data-dir', dir.path, '--format', 'csv', '--from', '2025-02-30'],
      ['export', '--data-dir', dir.path, '--format', 'csv', '--hours', '25-3'],
      ['export', '--data-dir', dir.path, '--format', 'csv', '--weekdays', 'funday'],
      ['export', '--data-dir', dir.path, '--format', 'csv', '--preset', '7d', '--from', '2025-02-01'],
      ['export', '--data-dir', dir.path, '--format', 'csv', '--area', '41.8,-87.6,1', '--area-id', '1'],
      ['frobnicate'],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });

  it('has help', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/blotter sync/);
  });
});

describe('blotter export and status', () => {
  it('exports CSV with the listed columns and neutralised formula cells', async () => {
    const out = `${dir.path}/out.csv`;
    const r = await cli(['export', '--data-dir', dir.path, '--format', 'csv', '--out', out]);
    expect(r.code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text.split('\r\n')[0]).toBe(
      'cdid,type,occurred_local,timezone,occurred_utc,date_raw,address,lat,lon,link,description,first_seen,last_seen,removed,subtype,attributes',
    );
    expect(text).toContain(`"'=HYPERLINK(""https://evil.example.test"",""click"") Synthetic Ave"`);
    expect(text).toContain("'+1+2 Block of Synthetic Plus St");
    expect(text).toContain("'-3+4 Block of Synthetic Minus Rd");
    expect(text).toContain("'@SUM(A1:A9) Synthetic Ct");
    expect(text).toContain('"600 Block of Synthetic Line\nBreak St"');
    expect(text).toContain('Café Ñandú');
    expect(text).toMatch(/,America\/Chicago,\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z,/);
  });

  it('exports GeoJSON filtered by type, dates and area', async () => {
    const r = await cli([
      'export',
      '--data-dir',
      dir.path,
      '--format',
      'geojson',
      '--types',
      'theft,assault',
      '--area',
      `${specials.lat},${specials.lon},0.3`,
    ]);
    expect(r.code).toBe(0);
    const fc = JSON.parse(r.stdout) as { features: { properties: { type: string } }[] };
    expect(fc.features.length).toBeGreaterThan(0);
    for (const f of fc.features) expect(['Theft', 'Assault']).toContain(f.properties.type);
  });

  it('reports the data folder', async () => {
    const r = await cli(['status', '--data-dir', dir.path]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Area 1 "41.874,-87.64,0.6"/);
    expect(r.stdout).toMatch(/last sync: .* refresh, (done|failed)/);
    expect(r.stdout).toMatch(/coverage: \d+ days complete/);
  });
});
