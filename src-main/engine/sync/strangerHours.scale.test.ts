/**
 * The stranger server's fair ratio at every time of day. The server builds its city around the
 * clock (testing/strangerServer.ts: the window's edge at now − 90 days, a pile of 700 at one point
 * 20 days back from 14:00Z), so where the sync's pages fall relative to the pile moves with the hour
 * a sync runs — and with it the request count. strangerServer.test.ts pins one instant; this sweeps
 * a day in 40-minute steps (Date faked; timers and the limiter run in real time) with the pile's
 * types matched exactly (400 when unknown) at 600 a minute: requests / ceil(N / 500) ≤ 2 at every
 * step. Before decide.ts `withoutPointPile` the ratio was 2.06–2.12 at 06:20–07:00Z (the cost model
 * counted a partial pile as a rate and split the tile in space), 1.71–1.76 elsewhere.
 * A scale test (vitest.scale.config.ts): about a minute on its own. The 40-minute step keeps CI
 * under its 20 minutes and still lands on 06:40Z, inside the hours that failed.
 */
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTempDir } from '../testing/tempDir';
import { startStrangerServer } from './testing/strangerServer';
import { strangerClient, syncOnce } from './testing/strangerRun';

const BOUND = 2;
const DAY_START = Date.parse('2026-11-29T00:00:00Z');
const STEP_MIN = 40;

describe('the fair ratio on the stranger server at every time of day', () => {
  afterEach(() => vi.useRealTimers());
  for (let minute = 0; minute < 24 * 60; minute += STEP_MIN) {
    const at = new Date(DAY_START + minute * 60_000).toISOString().slice(11, 16);
    it(`a first backfill of downtown begun at ${at}Z stays within ${BOUND}× the fair bound`, async () => {
      vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, now: DAY_START + minute * 60_000 });
      const server = await startStrangerServer({
        key: 'stranger-types-002',
        typesMatch: 'exact-400',
        ratePerMinute: 600,
      });
      const dir = makeTempDir('blotter-stranger-hours-');
      const client = strangerClient(server, path.join(dir.path, 'blotter.sqlite'));
      try {
        const area = { name: 'Downtown', shape: { ...server.downtown, radiusMi: 2 } };
        const { figures } = await syncOnce(server, client, [area]);
        expect(figures.state).toBe('done');
        expect(figures.recall).toBe(1);
        expect(figures.violations).toBe(0);
        expect(figures.requests / figures.fairLowerBound).toBeLessThanOrEqual(BOUND);
      } finally {
        await client.close();
        await server.close();
        dir.remove();
      }
    });
  }
});
