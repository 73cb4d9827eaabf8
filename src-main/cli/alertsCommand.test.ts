/**
 * `blotter alerts` and sync's alerts summary, run as processes against the simulator: a rule from
 * a JSON file is tested against the archive, saved, listed; a sync after the simulator's evolve()
 * names the rule and its new incidents in its last-line JSON; the rule is removed.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src-sim/index';
import { makeTempDir, type TempDir } from '../engine/testing/tempDir';
import { lastJson, onlyLine, runCli, syncArgs } from './cliTesting';

const KEY = 'cli-alerts-key-5150';
const AREA = { lat: 41.8837, lon: -87.6289, radiusMi: 0.4 };
let sim: Simulator;
let dir: TempDir;

const cli = (args: string[]) => runCli(KEY, args);

beforeAll(async () => {
  sim = await startSimulator({
    seed: 21,
    scale: 20_000,
    spanDays: 30,
    keys: [{ key: KEY, plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: 6000, windowDays: 30 }],
  });
  dir = makeTempDir('blotter-cli-alerts-');
});
afterAll(async () => {
  await sim.close();
  dir.remove();
});

describe('blotter alerts', () => {
  // Seven CLI processes, three of them syncs: well past the default timeout when the suite runs in parallel.
  it(
    'tests, adds, lists and removes a rule; sync names the alerts its runs raised',
    { timeout: 180_000 },
    async () => {
      const d = `${dir.path}/data`;
      const area = `${AREA.lat},${AREA.lon},${AREA.radiusMi}`;
      const first = await cli(syncArgs(d, sim.url, area));
      expect(first.code, first.stderr).toBe(0);
      expect(lastJson(first.stdout).alerts).toEqual([]); // the first backfill never fires

      const file = `${dir.path}/rule.json`;
      writeFileSync(file, JSON.stringify({ name: 'Anything new', areaId: 1, condition: { kind: 'any' } }));
      const tested = await cli(['alerts', 'test', '--rule', file, '--days', '30', '--data-dir', d]);
      expect(tested.code, tested.stderr).toBe(0);
      const t = lastJson(tested.stdout) as { fired: number; matched: number; days: number };
      expect(t.days).toBe(30);
      expect(t.fired).toBeGreaterThan(0);
      expect(tested.stdout).toContain(`This rule would have fired ${t.fired} times in the last 30 days`);

      const added = await cli(['alerts', 'add', '--rule', file, '--data-dir', d]);
      expect(added.code, added.stderr).toBe(0);
      expect(added.stdout).toMatch(/^Alert rule 1 saved: 1\tAnything new\tarea 1\tany new incident\n/);
      const byId = await cli(['alerts', 'test', '--rule', '1', '--days', '30', '--data-dir', d]);
      expect(lastJson(byId.stdout)).toMatchObject({ fired: t.fired });

      const deg = AREA.radiusMi / 69 / Math.cos((AREA.lat * Math.PI) / 180) / 1.5;
      const evolved = sim.evolve({
        add: 5,
        amend: 0,
        remove: 0,
        area: { lat: AREA.lat, lon: AREA.lon, radiusDeg: deg },
      });
      // evolve() also brings what occurred since the data was made, anywhere and maybe not yet reported
      // (more of it the longer the test has run): the sync owes only those in the area, reported now.
      const truth = new Set(
        sim.groundTruth({ lat: AREA.lat, lon: AREA.lon, radiusMi: AREA.radiusMi }).map((t) => t.cdid),
      );
      const owed = evolved.added.filter((c) => truth.has(c));
      expect(owed.length).toBeGreaterThanOrEqual(5); // the five added inside the area
      const second = await cli(syncArgs(d, sim.url, area));
      expect(second.code, second.stderr).toBe(0);
      const summary = lastJson(second.stdout) as {
        new: number;
        alerts: { ruleId: number; incidents: number }[];
      };
      expect(summary.alerts).toEqual([{ ruleId: 1, incidents: summary.new }]);
      expect(summary.new).toBeGreaterThanOrEqual(owed.length);

      const listed = await cli(['alerts', 'list', '--data-dir', d]);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toContain('1\tAnything new\tarea 1\tany new incident\n1 unread alert.\n');

      const again = await cli(syncArgs(d, sim.url, area)); // nothing new: no alert
      expect(lastJson(again.stdout).alerts).toEqual([]);

      expect((await cli(['alerts', 'remove', '1', '--data-dir', d])).stdout).toBe(
        'Alert rule 1 removed; its alerts stay in the inbox.\n',
      );
      const gone = await cli(['alerts', 'remove', '1', '--data-dir', d]);
      expect(gone.code).toBe(1);
      expect(onlyLine(gone)).toMatch(/no alert rule 1/);
    },
  );

  it('refuses a rule file that is not a rule, naming the field (exit 2)', async () => {
    const d = `${dir.path}/bad`;
    const file = `${dir.path}/bad.json`;
    writeFileSync(
      file,
      JSON.stringify({ name: 'x', areaId: null, condition: { kind: 'threshold', count: 1, days: 7 } }),
    );
    const r = await cli(['alerts', 'add', '--rule', file, '--data-dir', d]);
    expect(r.code).toBe(2);
    expect(onlyLine(r)).toMatch(/condition\.count/);
    const notJson = `${dir.path}/not.json`;
    writeFileSync(notJson, '{ nope');
    expect((await cli(['alerts', 'add', '--rule', notJson, '--data-dir', d])).code).toBe(2);
  });

  it('refuses a crime type nobody knows, naming the known ones, in add and test alike (exit 2)', async () => {
    const d = `${dir.path}/types`;
    const file = `${dir.path}/typo.json`;
    writeFileSync(
      file,
      JSON.stringify({
        name: 'x',
        areaId: null,
        filter: { types: ['burglery'] },
        condition: { kind: 'any' },
      }),
    );
    for (const action of ['add', 'test']) {
      const r = await cli(['alerts', action, '--rule', file, '--data-dir', d]);
      expect(r.code, r.stderr).toBe(2);
      expect(onlyLine(r)).toMatch(
        /"burglery" is not a crime type.*Known types: Shooting, Assault, .*Burglary/,
      );
    }
    const lower = `${dir.path}/lower.json`;
    writeFileSync(
      lower,
      JSON.stringify({
        name: 'x',
        areaId: null,
        filter: { types: ['burglary'] },
        condition: { kind: 'any' },
      }),
    );
    const added = await cli(['alerts', 'add', '--rule', lower, '--data-dir', d]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('any new incident (Burglary)');
  });
});
