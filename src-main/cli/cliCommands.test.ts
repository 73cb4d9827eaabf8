/**
 * The CLI's commands beyond sync/export/status, run as processes against the simulator (issue 12,
 * item 3): areas list|add|remove, settings get|set (the key only from standard input), and
 * import FILE [--dry-run] saying what it would add and change.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src-sim/index';
import { requireKeychain } from '../engine/testing/requireKeychain';
import { makeTempDir, type TempDir } from '../engine/testing/tempDir';
import { lastJson, onlyLine, runCli, syncArgs, type RunOptions } from './cliTesting';

const KEY = 'cli-commands-key-3344';
let sim: Simulator;
let dir: TempDir;

const cli = (args: string[], opts: RunOptions = {}) => runCli(KEY, args, opts);

beforeAll(async () => {
  sim = await startSimulator({
    seed: 5,
    scale: 20_000,
    spanDays: 40,
    keys: [{ key: KEY, plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: 6000, windowDays: 30 }],
  });
  dir = makeTempDir('blotter-cli-cmd-');
});
afterAll(async () => {
  await sim.close();
  dir.remove();
});

describe('blotter areas', () => {
  it('adds a circle and a GeoJSON polygon, lists them, and removes one', async () => {
    const d = `${dir.path}/areas`;
    const circle = await cli([
      'areas',
      'add',
      '--data-dir',
      d,
      '--name',
      'Loop',
      '--circle',
      '41.88,-87.63,0.5',
    ]);
    expect(circle.code, circle.stderr).toBe(0);
    expect(circle.stdout).toBe('Area 1 "Loop" added: circle around 41.88,-87.63, 0.5 mi.\n');
    const file = `${dir.path}/park.geojson`;
    writeFileSync(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            properties: {},
            geometry: {
              type: 'Polygon',
              coordinates: [
                [
                  [-87.62, 41.86],
                  [-87.6, 41.86],
                  [-87.6, 41.88],
                  [-87.62, 41.88],
                  [-87.62, 41.86],
                ],
              ],
            },
          },
        ],
      }),
    );
    const polygon = await cli(['areas', 'add', '--data-dir', d, '--name', 'Park', '--polygon', file]);
    expect(polygon.code, polygon.stderr).toBe(0);
    expect(polygon.stdout).toBe('Area 2 "Park" added: polygon of 4 points.\n');

    const listed = await cli(['areas', 'list', '--data-dir', d]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(
      listed.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t').slice(0, 3)),
    ).toEqual([
      ['1', 'Loop', 'circle around 41.88,-87.63, 0.5 mi'],
      ['2', 'Park', 'polygon of 4 points'],
    ]);

    const removed = await cli(['areas', 'remove', '1', '--data-dir', d]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toMatch(/^Area 1 removed/);
    const after = await cli(['areas', 'list', '--data-dir', d]);
    expect(after.stdout).not.toMatch(/Loop/);
    expect(after.stdout).toMatch(/^2\tPark\t/);
  });

  it('refuses a missing shape, two shapes or an unknown area with one line', async () => {
    const d = `${dir.path}/areas-bad`;
    for (const args of [
      ['areas', 'add', '--data-dir', d, '--name', 'Nowhere'],
      [
        'areas',
        'add',
        '--data-dir',
        d,
        '--name',
        'Both',
        '--circle',
        '41.8,-87.6,1',
        '--polygon',
        'x.geojson',
      ],
      ['areas', 'add', '--data-dir', d, '--name', 'Huge', '--circle', '41.8,-87.6,5000'],
      ['areas', 'remove', 'one', '--data-dir', d],
      ['areas', 'frobnicate', '--data-dir', d],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(onlyLine(r)).toMatch(/^blotter areas: /);
    }
    const unknown = await cli(['areas', 'remove', '42', '--data-dir', d]);
    expect(unknown.code).toBe(1);
    expect(onlyLine(unknown)).toBe('blotter: There is no area 42 (blotter areas list shows them).');
  });
});

describe('blotter settings', () => {
  it('sets and gets the connection settings; sync then needs no connection flags', async () => {
    const d = `${dir.path}/settings`;
    expect((await cli(['settings', 'set', 'base-url', sim.url, '--data-dir', d])).stdout).toBe(
      `base-url = ${sim.url}\n`,
    );
    expect((await cli(['settings', 'set', 'plan', 'enterprise', '--data-dir', d])).code).toBe(0);
    expect((await cli(['settings', 'set', 'rate', '6000', '--data-dir', d])).code).toBe(0);
    const all = await cli(['settings', 'get', '--data-dir', d]);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toBe(
      `base-url = ${sim.url}\nplan = enterprise\nrate = 6000\nwindow-days = 365\n` +
        'api-key = from BLOTTER_API_KEY (not stored)\n',
    );
    expect((await cli(['settings', 'get', 'plan', '--data-dir', d])).stdout).toBe('enterprise\n');
    expect((await cli(['settings', 'set', 'window-days', '30', '--data-dir', d])).code).toBe(0);

    const synced = await cli(['sync', '--data-dir', d, '--area', '41.8837,-87.6289,0.2']);
    expect(synced.code, synced.stderr).toBe(0);
    expect(lastJson(synced.stdout)).toMatchObject({ complete: true });
  });

  it('takes the API key only from standard input, never repeating one given as an argument', async () => {
    const d = `${dir.path}/settings-key`;
    const argv = await cli(['settings', 'set', 'api-key', 'sk-live-in-argv-98765', '--data-dir', d]);
    expect(argv.code).toBe(2);
    expect(onlyLine(argv)).toMatch(/standard input only/);
    expect(argv.stdout + argv.stderr).not.toContain('sk-live-in-argv-98765');
    const empty = await cli(['settings', 'set', 'api-key', '-', '--data-dir', d], { stdin: '' });
    expect(empty.code).toBe(2);
    expect(onlyLine(empty)).toMatch(/No API key on standard input/);
  });

  it('stores a key read from standard input in the keychain, and sync then uses it', async () => {
    await requireKeychain();
    const d = `${dir.path}/settings-keychain`;
    const stored = await cli(['settings', 'set', 'api-key', '-', '--data-dir', d], {
      stdin: `${KEY}\n`,
      env: { BLOTTER_API_KEY: undefined },
    });
    expect(stored.code, stored.stderr).toBe(0);
    expect(stored.stdout).toBe('api-key = stored in the keychain\n');
    const noEnv = { env: { BLOTTER_API_KEY: undefined } };
    expect((await cli(['settings', 'get', 'api-key', '--data-dir', d], noEnv)).stdout).toBe(
      'stored in the keychain\n',
    );
    const synced = await cli(syncArgs(d, sim.url, '41.8837,-87.6289,0.2'), noEnv);
    expect(synced.code, synced.stderr).toBe(0);
    expect(stored.stdout + stored.stderr + synced.stdout + synced.stderr).not.toContain(KEY);
  });

  it('needs no keychain with BLOTTER_API_KEY: sync, status and settings run without a D-Bus session', async () => {
    const d = `${dir.path}/no-keychain`;
    const noBus = { env: { DBUS_SESSION_BUS_ADDRESS: undefined } };
    const synced = await cli(syncArgs(d, sim.url, '41.8837,-87.6289,0.2'), noBus);
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stderr).not.toMatch(/keychain|D-Bus/i);
    expect((await cli(['status', '--data-dir', d], noBus)).code).toBe(0);
    expect((await cli(['settings', 'get', 'api-key', '--data-dir', d], noBus)).stdout).toBe(
      'from BLOTTER_API_KEY (not stored)\n',
    );
  });

  it('refuses unknown settings, bad values, and a rate for a plan whose rate is fixed', async () => {
    const d = `${dir.path}/settings-bad`;
    for (const args of [
      ['settings', 'get', 'colour', '--data-dir', d],
      ['settings', 'set', 'plan', 'gold', '--data-dir', d],
      ['settings', 'set', 'base-url', 'ftp://x', '--data-dir', d],
      ['settings', 'set', 'rate', '--data-dir', d],
      [
        'sync',
        '--data-dir',
        d,
        '--base-url',
        sim.url,
        '--plan',
        'developer',
        '--rate',
        '5',
        '--area',
        '41.88,-87.63,0.2',
      ],
      ['sync', '--data-dir', d, '--area', '41.88,-87.63,0.2'],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      onlyLine(r);
    }
  });
});

describe('blotter import', () => {
  it('says what a file would add and change, writes nothing on --dry-run, then imports', async () => {
    const from = `${dir.path}/import-from`;
    const into = `${dir.path}/import-into`;
    const synced = await cli(syncArgs(from, sim.url, '41.8837,-87.6289,0.3'));
    expect(synced.code, synced.stderr).toBe(0);
    const file = `${dir.path}/incidents.csv`;
    const exported = await cli(['export', '--data-dir', from, '--format', 'csv', '--out', file]);
    expect(exported.code, exported.stderr).toBe(0);
    const n = Number(/export: (\d+) incidents/.exec(exported.stderr)?.[1]);
    expect(n).toBeGreaterThan(0);

    const dry = await cli(['import', file, '--dry-run', '--data-dir', into]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`Would add ${n} new incidents.`);
    expect(dry.stdout).toContain('Of the 0 already held');
    expect(dry.stdout).toContain('Dry run: nothing was written.');
    expect((await cli(['status', '--data-dir', into])).stdout).toContain('Incidents: 0 stored');

    const real = await cli(['import', file, '--data-dir', into]);
    expect(real.code, real.stderr).toBe(0);
    expect(real.stdout).toMatch(new RegExp(`Imported: ${n} added, 0 changed`));
    expect((await cli(['status', '--data-dir', into])).stdout).toContain(`Incidents: ${n} stored`);

    const again = await cli(['import', file, '--dry-run', '--data-dir', into]);
    expect(again.stdout).toContain('Would add 0 new incidents.');
    expect(again.stdout).toContain(`Of the ${n} already held: 0 replaced`);
    expect(again.stdout).toContain(`${n} unchanged`);
  });

  it('refuses a missing file with one line', async () => {
    const r = await cli(['import', `${dir.path}/no-such.csv`, '--data-dir', `${dir.path}/import-none`]);
    expect(r.code).not.toBe(0);
    expect(onlyLine(r)).toMatch(/^blotter: /);
  });
});
