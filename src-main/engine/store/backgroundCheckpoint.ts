/**
 * Moves the write-ahead-log checkpoint of a large write off the engine thread. SQLite checkpoints
 * automatically when a commit leaves the log over 1000 pages, inside that commit: after a
 * million-row import that is copying some 400 MB (and an fsync) while every call waits. Around such
 * a write, `deferCheckpoint` turns the automatic checkpoint off; `release()` after the commit has a
 * thread with its own connection (checkpointWorker.ts) checkpoint the log while the engine goes on,
 * and turns it back on when that is done. Readers and writers are not blocked by a PASSIVE
 * checkpoint; if the thread cannot start, the checkpoint runs here as before. The emptied log is then
 * truncated here, on the engine's connection (nothing is left to copy: a moment's work), and only if
 * no one is reading at that instant — never by the thread, whose write lock would make another
 * connection's write fail "database is locked" (an upgrade from read to write does not wait).
 */
import { startWorkerThread, workerEntry } from '../workerThreads';
import { createLogger } from '../log';
import type { Db } from './database';
import type { CheckpointResult, CheckpointWorkerData } from './checkpointWorker';

const log = createLogger('store');

export type DeferredCheckpoint = {
  /** After the commit (or rollback): checkpoint in the background; resolves when done. */
  release(): Promise<void>;
};

export function deferCheckpoint(db: Db): DeferredCheckpoint {
  const every = db.pragma('wal_autocheckpoint', { simple: true }) as number;
  db.pragma('wal_autocheckpoint = 0');
  const restore = () => {
    if (db.open) db.pragma(`wal_autocheckpoint = ${every}`);
  };
  return {
    release: () =>
      new Promise<void>((resolve) => {
        const started = performance.now();
        let worker;
        try {
          worker = startWorkerThread(
            workerEntry(import.meta.url, 'checkpointWorker.ts', 'checkpointWorker.js'),
            { file: db.name } satisfies CheckpointWorkerData,
          );
        } catch (error) {
          log.warn('checkpointing here: no checkpoint thread', { error });
          restore();
          if (db.open) db.pragma('wal_checkpoint(PASSIVE)');
          resolve();
          return;
        }
        let settled = false;
        const finish = (result: CheckpointResult | { ok: false; message: string }) => {
          if (settled) return;
          settled = true;
          restore();
          if (result.ok && result.copied === result.frames) truncateLog(db); // else copying would block here
          const ms = Math.round(performance.now() - started);
          if (result.ok) log.info('log checkpointed in the background', { ...result, ms });
          else
            log.warn('background checkpoint failed; the next commit checkpoints', {
              message: result.message,
            });
          resolve();
        };
        worker.once('message', finish);
        worker.once('error', (error) => finish({ ok: false, message: error.message }));
        worker.once('exit', () => finish({ ok: false, message: 'the checkpoint thread stopped' }));
      }),
  };
}

/** Truncates the write-ahead log if every frame is in the database and nothing reads at this instant. */
function truncateLog(db: Db): void {
  if (!db.open) return;
  const wait = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // busy (a reader, or another process writing): the next write reuses the log from its start
  } finally {
    db.pragma(`busy_timeout = ${wait}`);
  }
}
