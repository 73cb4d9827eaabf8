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
 * Every other engine-thread write fails at once during a long write (see the constructor); the
 * dispatcher then runs its call again in its turn (`waitingOnRefusal`), so a user's save waits too.
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
  /** Long writes begun so far, and whether one holds the turns now (`refusedByLongWrite`). */
  private longBegun = 0;
  private longNow = false;

  /**
   * `engineDb`: the engine's connection. While a long write runs it waits 0 ms for the write lock,
   * so an engine-thread write that did not ask for its turn (a settings save, an area edit) fails at
   * once — nothing changed — instead of freezing the engine thread in SQLite's busy handler for up
   * to 15 s; the dispatcher then makes it in its turn (`waitingOnRefusal`). Outside a dispatched call
   * it is `database_locked` in words that say an import is being saved.
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

  /**
   * Runs a call's `work` (its engine-thread writes did not ask for a turn); when a long write's lock
   * refused one of them — SQLite's busy while a long write held the turns, so that write changed
   * nothing — waits for its turn on the event loop and runs the call again (a few times at most),
   * as a sync page waits: a settings save or an area edit during an import is made after its commit.
   */
  async waitingOnRefusal<T>(work: () => Promise<T>, attempts = 4): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const begun = this.longBegun;
      const during = this.longNow;
      try {
        return await work();
      } catch (error) {
        const refused = isBusy(error) && (during || this.longNow || this.longBegun !== begun);
        if (!refused || attempt >= attempts) throw error;
        await this.take(() => undefined);
      }
    }
  }

  private async turn<T>(work: () => Promise<T>, long: boolean): Promise<T> {
    await this.acquire();
    if (long) {
      this.longBegun += 1;
      this.longNow = true;
      this.lockWaitOnEngine(true);
    }
    try {
      return await work();
    } finally {
      if (long) {
        this.lockWaitOnEngine(false);
        this.longNow = false;
      }
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

/** SQLite's "busy" or "locked" (the error or one of its causes): another connection held the write lock. */
function isBusy(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(e.code)) return true;
    e = e.cause as typeof e;
  }
  return false;
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
