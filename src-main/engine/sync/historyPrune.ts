/**
 * The sync's history is kept only as long as something needs it: request-log rows for 7 days (the
 * limiter looks back a minute; a week answers "what did Blotter ask, and when"), and per area the
 * runs (with their jobs) of the last 100 runs — the latest run gives the status and the resume
 * point. Pruned when the engine starts and after each sync, in small batches (one short write
 * transaction each, a turn of the event loop between them) in the engine's thread, never on a
 * call's path. A run still running is never pruned.
 */
import type { Logger } from '../log';
import type { Db } from '../store/database';

export const REQUEST_LOG_DAYS = 7;
export const RUNS_KEPT_PER_AREA = 100;
export const PRUNE_BATCH = 500;
const DAY_MS = 86_400_000;

/** One small batch of pruning; returns whether there is more to do. */
export function pruneStep(db: Db, now: number, batch = PRUNE_BATCH): boolean {
  return db
    .transaction((): boolean => {
      const logs = db
        .prepare(
          'DELETE FROM request_log WHERE id IN (SELECT id FROM request_log WHERE at < ? ORDER BY at LIMIT ?)',
        )
        .run(now - REQUEST_LOG_DAYS * DAY_MS, batch).changes;
      if (logs >= batch) return true;
      const old = oldRun(db);
      if (old === undefined) return false;
      // Children before parents (higher ids first), so a batch never cascades into a whole tree.
      const jobs = db
        .prepare(
          'DELETE FROM sync_jobs WHERE id IN (SELECT id FROM sync_jobs WHERE run_id = ? ORDER BY id DESC LIMIT ?)',
        )
        .run(old, batch).changes;
      if (jobs < batch) db.prepare('DELETE FROM sync_runs WHERE id = ?').run(old);
      return true;
    })
    .immediate();
}

/** A run beyond the last RUNS_KEPT_PER_AREA of its area (areas gone included), not running. */
function oldRun(db: Db): number | undefined {
  const areas = db.prepare<[], { area_id: number | null }>('SELECT DISTINCT area_id FROM sync_runs').all();
  const beyond = db.prepare<{ area: number | null; offset: number }, { id: number }>(
    `SELECT id FROM sync_runs WHERE area_id IS @area AND state != 'running' AND id <
       coalesce((SELECT id FROM sync_runs WHERE area_id IS @area ORDER BY id DESC LIMIT 1 OFFSET @offset), -1)
     ORDER BY id LIMIT 1`,
  );
  for (const a of areas) {
    const row = beyond.get({ area: a.area_id, offset: RUNS_KEPT_PER_AREA - 1 });
    if (row) return row.id;
  }
  return undefined;
}

/** Prunes batch by batch on later turns of the event loop; returns a cancel function. */
export function schedulePrune(
  db: Db,
  now: () => number,
  log: Logger,
  done: () => void = () => undefined,
): () => void {
  let timer: NodeJS.Timeout | null = null;
  let batches = 0;
  const step = (): void => {
    timer = null;
    try {
      if (!db.open) return done();
      batches++;
      if (pruneStep(db, now())) {
        timer = setTimeout(step, 0);
        return;
      }
      if (batches > 1) log.info('old sync history pruned', { batches });
    } catch (error) {
      log.warn('pruning old sync history failed; it is tried again later', { error });
    }
    done();
  };
  timer = setTimeout(step, 0);
  return () => {
    if (timer) clearTimeout(timer);
    timer = null;
    done();
  };
}
