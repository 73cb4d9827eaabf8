/**
 * "Test a rule against the archive" off the engine's call path (issue 31): on a helper thread with
 * its own read-only connection (ruleTestWorker.ts), so the views keep answering while it reads;
 * an archive without a file of its own (a test's in-memory one) is tested on this thread. `signal`
 * ends the thread at once (Cancel): the test rejects with the signal's reason.
 */
import type { AlertRuleSpec, RuleTestResult } from '../../../src-shared/alerts';
import type { Db } from '../store/database';
import { startWorkerThread, workerEntry, settleOnce } from '../workerThreads';
import { testRule } from './ruleTest';
import type { FromRuleTestWorker, RuleTestWorkerData } from './ruleTestWorker';

export function testRuleOffThread(
  db: Db,
  rule: AlertRuleSpec,
  days: number,
  now: number,
  signal?: AbortSignal,
): Promise<RuleTestResult> {
  if (db.memory) return Promise.resolve(testRule(db, rule, days, now));
  return new Promise((resolve, reject) => {
    const worker = startWorkerThread(workerEntry(import.meta.url, 'ruleTestWorker.ts', 'ruleTestWorker.js'), {
      dbFile: db.name,
      rule,
      days,
      now,
    } satisfies RuleTestWorkerData);
    const { settle } = settleOnce(worker, reject, {
      stopped: (code) => new Error(`The rule test stopped unexpectedly (exit code ${code}).`),
      signal,
      cancelled: () => (signal?.reason instanceof Error ? signal.reason : new Error('Test cancelled.')),
    });
    worker.on('message', (m: FromRuleTestWorker) =>
      settle(() => ('result' in m ? resolve(m.result) : reject(new Error(m.failed)))),
    );
  });
}
