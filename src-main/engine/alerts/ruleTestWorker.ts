/**
 * The rule-test thread (built as out/main/ruleTestWorker.js; see ruleTestThread.ts): tests one
 * alert rule against the archive (ruleTest.ts) on its own read-only connection and answers the
 * result — a near-repeat rule over a year reads the archive around every incident, seconds on the
 * engine thread (issue 31).
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { AlertRuleSpec, RuleTestResult } from '../../../src-shared/alerts';
import { testRule } from './ruleTest';

export type RuleTestWorkerData = { dbFile: string; rule: AlertRuleSpec; days: number; now: number };
export type FromRuleTestWorker = { result: RuleTestResult } | { failed: string };

const port = parentPort;
if (!port) throw new Error('ruleTestWorker.ts runs as a worker thread');
const { dbFile, rule, days, now } = workerData as RuleTestWorkerData;
try {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    port.postMessage({ result: testRule(db, rule, days, now) } satisfies FromRuleTestWorker);
  } finally {
    db.close();
  }
} catch (error) {
  port.postMessage({
    failed: error instanceof Error ? error.message : String(error),
  } satisfies FromRuleTestWorker);
}
