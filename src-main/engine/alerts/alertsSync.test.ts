import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../src-sim/index';
import { simOptions, startHarness, storedIn, TEST_KEY, truthIn, type Harness } from '../sync/testing/harness';
import { evaluateAlerts } from './evaluate';
import { listAlerts } from './inbox';
import { createRuleStore } from './rules';

let h: Harness<Simulator> | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const midtown = { kind: 'circle' as const, lat: 40.7549, lon: -73.984, radiusMi: 0.6 };

function runChild(
  env: Record<string, string>,
): Promise<{ signal: NodeJS.Signals | null; code: number | null; out: string }> {
  const script = path.join(__dirname, 'testing', 'syncChild.ts');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, out }));
  });
}

const allAlertCdids = (db: Harness<Simulator>['db']) =>
  listAlerts(db, { limit: 10_000 }).flatMap((a) => a.cdids);

describe('alerts in the sync against the simulator', () => {
  it('raises exactly the expected alerts, once each, across a kill -9 mid-evaluation, a restart and a re-sync', async () => {
    // The sync's page hook, wired to the alerts as services.ts wires the engine's.
    h = await startHarness(await startSimulator(simOptions()), { onPageCommitted: evaluateAlerts });
    const area = h.service.areas.create({ name: 'Midtown', shape: midtown }, h.sim.clock.nowMs());
    createRuleStore(h.db).add(
      { name: 'Everything new', areaId: area.id, condition: { kind: 'any' } },
      h.sim.clock.nowMs(),
    );

    // The first backfill brings the whole window: old news, no alert.
    const [backfill] = await h.service.syncAreas([area], h.conn);
    expect(backfill?.state).toBe('done');
    expect(listAlerts(h.db)).toEqual([]);
    const before = storedIn(h.db, midtown);

    h.sim.clock.advance(2 * 3_600_000);
    const deg = 0.6 / 69 / Math.cos((midtown.lat * Math.PI) / 180) / 1.5;
    h.sim.evolve({
      add: 15,
      amend: 4,
      remove: 0,
      area: { lat: midtown.lat, lon: midtown.lon, radiusDeg: deg },
    });
    const expected = [...truthIn(h.sim, midtown)].filter((c) => !before.has(c)).sort((a, b) => a - b);
    expect(expected.length).toBeGreaterThanOrEqual(15);

    // A CLI-like sync in another process, killed (SIGKILL) inside the commit that wrote the first alert.
    h.db.close();
    const child = await runChild({
      BLOTTER_TEST_DB: `${h.dir.path}/blotter.sqlite`,
      BLOTTER_TEST_SIM: h.sim.url,
      BLOTTER_TEST_KEY: TEST_KEY,
      BLOTTER_TEST_NOW: String(h.sim.clock.nowMs()),
      BLOTTER_TEST_AREA: String(area.id),
    });
    expect(child.signal, child.out).toBe('SIGKILL');
    expect(child.out).toMatch(/killing mid-evaluation/);

    // Restart: the killed commit left nothing — no alert, and not its incidents either.
    h.reopen();
    expect(listAlerts(h.db)).toEqual([]);
    const [resumed] = await h.service.syncAreas([h.service.areas.get(area.id)!], h.conn, { depth: 'deep' });
    expect(resumed?.state).toBe('done');
    expect(allAlertCdids(h.db).sort((a, b) => a - b)).toEqual(expected);

    // Another restart and a re-sync: the same alerts, nothing twice.
    const alertsThen = listAlerts(h.db, { limit: 10_000 }).map((a) => a.id);
    h.reopen();
    h.sim.clock.advance(60_000);
    const [again] = await h.service.syncAreas([h.service.areas.get(area.id)!], h.conn, { depth: 'deep' });
    expect(again?.state).toBe('done');
    expect(listAlerts(h.db, { limit: 10_000 }).map((a) => a.id)).toEqual(alertsThen);
    const ledger = h.db.prepare('SELECT count(*) AS n FROM alert_fired').get() as { n: number };
    expect(ledger.n).toBe(expected.length);
    console.log(JSON.stringify({ expected: expected.length, alerts: alertsThen.length }));
  }, 120_000);
});
