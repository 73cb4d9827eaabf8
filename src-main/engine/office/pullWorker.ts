/**
 * The office bulk catch-up's helper thread (built as out/main/pullWorker.js; started by
 * bulkCatchUp.ts): one local transaction on a second writer connection of its own
 * (store/writeTurns.ts: BEGIN IMMEDIATE, busy timeout) — the incidents' per-row index triggers and
 * secondary indexes set aside, each page the engine thread read from PostgreSQL applied with its
 * cursor (pulledApply.ts), then the indexes built from a sort and the text index rebuilt whole (as
 * the import does: import/merge.ts) and the transaction committed: all or nothing. The engine thread
 * only reads PostgreSQL and passes each page on as its JSON text, so it goes on answering calls.
 *
 * Messages in: `page` (a JSON array of rows, in change order), `finish`, `abort` (roll back).
 * Out: `started`, `applied` (one per page), then `done` or `failed`. A cancelled pull terminates
 * the thread instead (bulkCatchUp.ts): the connection closes uncommitted, so nothing is kept.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { HELPER_NICE, runBelowHost } from '../threadPriority';
import { openSecondWriter } from '../store/writeTurns';
import type { Db } from '../store/database';
import { rebuildFts, setIndexesAside, setTriggersAside } from '../import/merge';
import { pulledApplier } from './pulledApply';

export type PullWorkerData = { dbFile: string };
export type ToPullWorker = { type: 'page'; text: string } | { type: 'finish' } | { type: 'abort' };
export type FromPullWorker =
  | { type: 'started' }
  | { type: 'applied'; incidents: number }
  | { type: 'done'; incidents: number }
  | { type: 'failed'; message: string; code?: string };

/** Rows applied per statement batch (as on the engine thread: replica.ts). */
const APPLY_ROWS = 1_000;

if (!parentPort) throw new Error('pullWorker.ts runs as a worker thread');
const port = parentPort;
const post = (m: FromPullWorker) => port.postMessage(m);

let db: Db | undefined;
let restore: string[] = [];
let taken = 0;

function fail(error: unknown): void {
  if (db?.open && db.inTransaction) db.exec('ROLLBACK');
  if (db?.open) db.close();
  const e = error as { message?: unknown; code?: unknown };
  post({
    type: 'failed',
    message: typeof e?.message === 'string' ? e.message : String(error),
    ...(typeof e?.code === 'string' ? { code: e.code } : {}),
  });
  port.close();
}

function onMessage(m: ToPullWorker): void {
  if (!db) return;
  try {
    if (m.type === 'abort') {
      if (db.inTransaction) db.exec('ROLLBACK');
      db.close();
      port.close();
      return;
    }
    if (m.type === 'page') {
      const rows = JSON.parse(m.text) as Record<string, unknown>[];
      let n = 0;
      for (let at = 0; at < rows.length; at += APPLY_ROWS)
        n += applier.apply('incidents', rows.slice(at, at + APPLY_ROWS));
      taken += n;
      post({ type: 'applied', incidents: n });
      return;
    }
    for (const sql of restore.filter(isIndex)) db.exec(sql);
    rebuildFts(db);
    for (const sql of restore.filter((s) => !isIndex(s))) db.exec(sql);
    db.exec('COMMIT');
    db.close();
    post({ type: 'done', incidents: taken });
    port.close();
  } catch (error) {
    fail(error);
  }
}

const isIndex = (sql: string) => /^CREATE\s+(UNIQUE\s+)?INDEX/i.test(sql);

// Below the engine thread: when both want a core, the engine's calls are answered first.
runBelowHost(HELPER_NICE);
let applier: ReturnType<typeof pulledApplier>;
try {
  db = openSecondWriter((workerData as PullWorkerData).dbFile);
  db.exec('BEGIN IMMEDIATE');
  restore = [...setTriggersAside(db), ...setIndexesAside(db)];
  applier = pulledApplier(db, Date.now);
  port.on('message', onMessage);
  post({ type: 'started' });
} catch (error) {
  fail(error);
}
