/**
 * Cancel of "test a rule against the archive" (issue 31): `cancelAlertRuleTest` ends the running
 * test's thread at once; the test's call answers `cancelled` in words, and a later test works.
 * The archive is large enough that a near-repeat test over a year lasts well past the Cancel.
 */
import { afterEach, expect, it } from 'vitest';
import type { RuleTestResult } from '../../../src-shared/alerts';
import { openEngine, type EngineFixture } from '../testing/engineFixture';
import { addArea, CENTER, DAY, insertIncident } from './testing/crafted';

let fx: EngineFixture | null = null;
afterEach(() => {
  fx?.close();
  fx = null;
});

/** What a call settled with: its value, or its error's code and words. */
const outcome = <T>(p: Promise<T>) =>
  p.then(
    (value) => ({ value }),
    (error: Error & { code?: string }) => ({ code: error.code, message: error.message }),
  );

it('cancels a running rule test: it answers cancelled in words, a later test works', async () => {
  const e = openEngine({ host: 'cli', version: 't' });
  fx = e;
  const db = e.engine.context.db;
  const areaId = addArea(db, { radiusMi: 1 });
  const now = Date.now();
  // 60,000 incidents within ~0.3 mi over the last year: a near-repeat test reads ~2,300 around each.
  db.transaction(() => {
    for (let k = 0; k < 60_000; k++) {
      insertIncident(
        db,
        {
          cdid: 1 + k,
          at: now - 2 * DAY - Math.floor((k * 360 * DAY) / 60_000),
          lat: CENTER.lat + ((k % 97) - 48) / 20_000,
          lon: CENTER.lon + ((k % 89) - 44) / 20_000,
        },
        now,
      );
    }
  })();
  const nearRepeat = {
    name: 'Near',
    areaId,
    condition: { kind: 'nearRepeat' as const, miles: 0.5, days: 14 },
  };
  let settled = false;
  const running = outcome(e.call<RuleTestResult>('testAlertRule', { rule: nearRepeat, days: 365 })).finally(
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(settled).toBe(false); // still testing
  const asked = performance.now();
  expect(await e.call('cancelAlertRuleTest', {})).toEqual({ cancelled: true });
  expect(await running).toEqual({ code: 'cancelled', message: 'Test cancelled.' });
  expect(performance.now() - asked).toBeLessThan(3_000);
  expect(await e.call('cancelAlertRuleTest', {})).toEqual({ cancelled: false });

  // A later test runs to its answer.
  const any = { name: 'Any', areaId, condition: { kind: 'any' as const } };
  const later = await e.call<RuleTestResult>('testAlertRule', { rule: any, days: 30 });
  expect(later.matched).toBeGreaterThan(0);
  expect(later.fired).toBe(later.matched);
});

it('with no test running, Cancel answers false', async () => {
  fx = openEngine({ host: 'cli', version: 't' });
  expect(await fx.call('cancelAlertRuleTest', {})).toEqual({ cancelled: false });
});
