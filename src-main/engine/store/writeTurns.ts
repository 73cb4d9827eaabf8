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
 * Every other engine-thread write fails at once during a long write (see the constructor).
 *
 * The second connection (`openSecondWriter`) begins every write transaction IMMEDIATE (better-sqlite3's
 * `.immediate()`) with the same busy timeout as the engine's, so it waits for a write lock held
 * elsewhere (another Blotter on the folder) rather than failing on upgrading a read.
 */
import Database from 'better-sqlite3';
import type { Db } from './database';
import { BUSY_TIMEOUT_MS, markLongWrite } from './localFailure';

export class WriteTurns {
  private held = false;
  private readonly waiting: (() => void)[] = [];

  /**
   * `engineDb`: the engine's connection. While a long write runs it waits 0 ms for the write lock,
   * so an engine-thread write that did not ask for its turn (a settings save, an area edit) fails at
   * once with `database_locked` in words that say an import is being saved — retryable, nothing
   * changed — instead of freezing the engine thread in SQLite's busy handler for up to 15 s.
   */
  constructor(private readonly engineDb?: Db) {}

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
    return this.turn(async () => write(), false);
  }

  /** Holds the turn while `work` (a write on another connection) runs, after those who asked first. */
  hold<T>(work: () => Promise<T>): Promise<T> {
    return this.turn(work, true);
  }

  private async turn<T>(work: () => Promise<T>, long: boolean): Promise<T> {
    await this.acquire();
    if (long) this.lockWaitOnEngine(true);
    try {
      return await work();
    } finally {
      if (long) this.lockWaitOnEngine(false);
      this.release();
    }
  }

  /** The engine's connection gives up on a held write lock at once during a long write (see the constructor). */
  private lockWaitOnEngine(during: boolean): void {
    const db = this.engineDb;
    if (!db) return;
    markLongWrite(db.name, during);
    if (db.open) db.pragma(`busy_timeout = ${during ? 0 : BUSY_TIMEOUT_MS}`);
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
