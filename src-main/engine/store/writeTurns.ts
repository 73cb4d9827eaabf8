/**
 * Whose turn it is to write the archive, within one engine. SQLite lets one connection write at a
 * time. The engine's own connection writes synchronously on the engine thread; a long write (an
 * import's merge) runs on a helper thread's connection of its own, so the engine goes on answering.
 * A write on the engine's connection while that one holds the lock would wait inside SQLite —
 * blocking the engine thread up to the busy timeout, then failing "database is locked".
 *
 * So a long write on another connection takes the turn (`hold`) before it begins and gives it back
 * after its commit or rollback; an engine-thread write that can wait (a sync page's commit) asks
 * for its turn (`take`): at once when no long write holds it, else after — waiting on the event
 * loop, never blocking the thread, and never lost (it runs once the holder is done, whatever the
 * holder's outcome). Turns are given in the order asked: a page that asked before an import goes
 * first, the import's commit goes before a page that asked later.
 *
 * The second connection (`openSecondWriter`) begins every write transaction IMMEDIATE (better-sqlite3's
 * `.immediate()`) with the same busy timeout as the engine's, so it waits for a write lock held
 * elsewhere (another Blotter on the folder) rather than failing on upgrading a read.
 */
import Database from 'better-sqlite3';
import type { Db } from './database';
import { BUSY_TIMEOUT_MS } from './localFailure';

export class WriteTurns {
  private held = false;
  private readonly waiting: (() => void)[] = [];

  /** Whether a write holds the turn or waits for it. */
  get busy(): boolean {
    return this.held || this.waiting.length > 0;
  }

  /** Runs `write` (synchronous, on the engine's connection) in its turn: now when no one holds it. */
  take<T>(write: () => T): Promise<T> {
    if (!this.busy) {
      try {
        return Promise.resolve(write());
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
    return this.hold(async () => write());
  }

  /** Holds the turn while `work` (a write on another connection) runs, after those who asked first. */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }
}

/**
 * A second connection that writes the archive (a helper thread's): the engine's busy timeout and
 * settings, and no automatic checkpoint — its large commit is checkpointed in the background
 * (backgroundCheckpoint.ts). Its transactions begin IMMEDIATE.
 */
export function openSecondWriter(file: string): Db {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('wal_autocheckpoint = 0');
    if (db.pragma('journal_mode', { simple: true }) !== 'wal')
      throw new Error('the archive is not in WAL mode');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
