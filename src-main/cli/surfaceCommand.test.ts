/**
 * The v1 surface from the command line, as processes against the simulator: `status` says which
 * surface the area's syncs use and why, with v1's score and trend; `sync --history` shows its
 * request count first, refuses with the reason while v1 is not in use, and then brings the months
 * before the plan window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src-sim/index';
import { makeTempDir, type TempDir } from '../engine/testing/tempDir';
import { lastJson, runCli, syncArgs } from './cliTesting';

const KEY = 'cli-surface-key-5566';
let sim: Simulator;
let dir: TempDir;
const cli = (args: string[]) => runCli(KEY, args);
const AREA = '40.7549,-73.984,0.5';

beforeAll(async () => {
  sim = await startSimulator({
    seed: 5,
    scale: 20_000,
    spanDays: 60,
    keys: [{ key: KEY, plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: 6000, windowDays: 30 }],
  });
  dir = makeTempDir('blotter-cli-surface-');
});
afterAll(async () => {
  await sim.close();
  dir.remove();
});

describe('blotter sync and status on the v1 surface', () => {
  // Nine CLI processes, five of them syncs: past the default timeout when the suite runs in parallel.
  it(
    'stays on live while v1 is absent (history refused, saying why), then uses v1 once it answers',
    { timeout: 180_000 },
    async () => {
      const d = `${dir.path}/folder`;
      const first = await cli(syncArgs(d, sim.url, AREA));
      expect(first.code, first.stderr).toBe(0);
      // A first backfill this small does not spend the daily probe (v1 could not make it cheaper):
      // the next sync probes.
      const next = await cli(syncArgs(d, sim.url, AREA));
      expect(next.code, next.stderr).toBe(0);
      const status = await cli(['status', '--data-dir', d]);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toMatch(
        /surface: live \(v1 not used\) — The service has no v1 surface at 127\.0\.0\.1:\d+ yet \(404\)/,
      );

      const refused = await cli([...syncArgs(d, sim.url, AREA), '--history']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/plan: area 1 history \(36 months on v1\), at most about \d+ requests/);
      expect(refused.stderr).toMatch(
        /no history backfill: The history comes through the v1 surface, which Blotter does not use/,
      );

      // The service turns v1 on; a new folder's small first backfill runs on live, its next sync
      // probes and syncs over v1.
      sim.setV1(true);
      const e = `${dir.path}/second`;
      const backfill = await cli(syncArgs(e, sim.url, AREA));
      expect(backfill.code, backfill.stderr).toBe(0);
      const v1 = await cli(syncArgs(e, sim.url, AREA));
      expect(v1.code, v1.stderr).toBe(0);
      const st = await cli(['status', '--data-dir', e]);
      expect(st.stdout).toMatch(/last sync: .* refresh on v1, done/);
      expect(st.stdout).toMatch(/surface: v1 — v1 verified: \d+ of \d+ sample incidents/);
      expect(st.stdout).toMatch(/v1 score: \d+ \([A-F]\) within [\d.]+ mi/);
      expect(st.stdout).toMatch(/v1 trend \(per week\): (\d+, ){11}\d+/);

      const history = await cli([...syncArgs(e, sim.url, AREA), '--history']);
      expect(history.code, history.stderr).toBe(0);
      expect(history.stderr).toMatch(/plan: area 1 history/);
      const summary = lastJson(history.stdout);
      expect(summary.complete).toBe(true);
      expect(summary.new as number).toBeGreaterThan(0);
      const after = await cli(['status', '--data-dir', e]);
      expect(after.stdout).toMatch(/last sync: .* backfill on v1-history, done/);
    },
  );
});
