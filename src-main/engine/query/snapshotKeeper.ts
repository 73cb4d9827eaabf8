/**
 * Keeps one database's snapshot loaded and fresh.
 *
 * - First use: the saved snapshot (snapshotCache.ts) if there is one — counts in ~100 ms. It records
 *   the file's incident change counter (changeLog.ts `changeCounter`) it reflects: when the file's
 *   is the same, the snapshot is current and nothing is read again; when not (a command-line sync,
 *   an import, a restored backup while closed) it answers at once marked `updating` while a full
 *   re-read in the background replaces it. No saved snapshot: a full read, awaited.
 * - Writes through this connection are seen by TEMP triggers (changeLog.ts); those rows are
 *   re-read before the next query (a sync page: ~1 ms); a bulk change (over a tenth of the rows)
 *   means a full read, in the background once a snapshot is in place (`get` answers from the old
 *   one, marked `updating`; `fresh` waits for the new). Writers may also report cdids themselves (`written`), not required.
 * - `PRAGMA data_version` reveals commits by other connections or processes: a background full
 *   re-read follows, and `onExternalChange` tells the views to ask again.
 * - `get` may answer from a snapshot behind the file while such a re-read runs (the app's views,
 *   marked `updating`); `fresh` never does: it waits for the re-read that covers what the file held
 *   when it was called. Everything that leaves the engine as a result is computed from `fresh`
 *   (QueryService `snapshot`).
 * - The snapshot is saved after a full read and, when it changed since, on close.
 */
import { SCHEMA_VERSION, type Db } from '../store/database';
import type { Logger } from '../log';
import type { Snapshot } from './snapshot';
import { readSavedFacts, readSnapshotFile, writeSnapshotFile, type SavedFacts } from './snapshotCache';
import { yieldToEventLoop } from '../eventLoop';
import { applyChanges, loadSnapshot } from './snapshotLoader';
import { ChangeLog, changeCounter } from './changeLog';
import { sameContent } from './snapshotCompare';

export type KeeperOptions = {
  /** Where the snapshot is saved between sessions; default `<db file>.snapshot`; null: nowhere. */
  cacheFile?: string | null;
  /** Rows per load chunk (see snapshotLoader). */
  loadChunkRows?: number;
  /** Called when incidents changed other than through `written` (another process, a stale save). */
  onExternalChange?: () => void;
  /** A new snapshot is in place (caches keyed on the old one should go). */
  onReplace?: (snapshot: Snapshot) => void;
  /** A full read's progress (first read or re-read): at most every 250 ms, and its end. */
  onProgress?: (read: { done: number; total: number }) => void;
};

const PROGRESS_EVERY_MS = 250;

const STAMP = `schema ${SCHEMA_VERSION}`;

/**
 * For end-to-end tests only: holds each background re-read back this long, so a journey can see
 * the first answers of a saved snapshot behind the file ("updating") before the re-read lands.
 */
const reloadDelayMs = (): number => Number(process.env.BLOTTER_E2E_RELOAD_DELAY_MS ?? 0) || 0;

class Closed extends Error {}

export class SnapshotKeeper {
  private current: Snapshot | null = null;
  private first: Promise<void> | null = null;
  private blocking: Promise<void> | null = null;
  private stale = false;
  private reload: Promise<void> | null = null;
  private reloadAgain = false;
  /** Background re-reads started, and the number of the last one whose snapshot is in place. */
  private reloadsStarted = 0;
  private reloadInstalled = 0;
  private readonly pending = new Set<number>();
  /** cdids written while a background read is under way: re-read into its result too. */
  private touched: Set<number> | null = null;
  private dataVersion = -1;
  private dirty = false;
  private closed = false;
  private saving: Promise<void> = Promise.resolve();
  readonly cacheFile: string | null;
  private readonly changes: ChangeLog;
  /** The change counter the current snapshot reflects for certain (null: not known). */
  private reflects: string | null = null;
  /** The snapshot is a saved one that is behind the file: answers are marked until it is replaced. */
  private behind = false;
  /** Where this session's first snapshot came from. */
  startedFrom: 'saved' | 'store' | null = null;
  /** The last full read: time and size (diagnostics, benchmark). */
  lastLoad: { ms: number; rows: number; fromCache: boolean } | null = null;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly options: KeeperOptions = {},
  ) {
    const file = db.memory || !db.name ? null : `${db.name}.snapshot`;
    this.cacheFile = options.cacheFile === undefined ? file : options.cacheFile;
    this.changes = new ChangeLog(db);
  }

  /** Incidents were written: these cdids, or (none given) any number of them — read all again. */
  written(cdids?: Iterable<number>): void {
    if (!cdids) {
      this.stale = true;
      return;
    }
    for (const c of cdids) {
      this.pending.add(c);
      this.touched?.add(c);
    }
  }

  /**
   * The snapshot for an answer that may lag: after a bulk change (an import, a sync of many pages)
   * the one in place answers, marked behind, while a background re-read builds the next — a call
   * never waits for the seconds a full read of 1M rows takes, nor the engine thread for more than
   * one chunk of it. Only the first read (nothing in place yet) is awaited.
   */
  get(): Promise<Snapshot> {
    return this.snapshotNow(false);
  }

  private async snapshotNow(readStaleNow: boolean): Promise<Snapshot> {
    if (this.closed) throw new Error('The query service is closed.');
    // One read transaction: the commits of others (data_version), this connection's own writes and
    // the change counter all describe the same state of the file.
    const [version, changed, counter] = this.db.transaction(
      () =>
        [
          this.db.pragma('data_version', { simple: true }) as number,
          this.changes.drain(),
          changeCounter(this.db),
        ] as const,
    )();
    const foreign = this.dataVersion !== -1 && version !== this.dataVersion;
    if (foreign) {
      if (this.current) this.startReload();
      else this.stale = true; // another process wrote during the first read: read again after it
    }
    this.dataVersion = version;
    if (this.current && changed.length > Math.max(10_000, this.current.size / 10)) this.stale = true;
    else this.written(changed);
    if (!this.current) await (this.first ??= this.start());
    if (this.stale && this.current && !this.blocking && !readStaleNow) this.reloadBehind();
    // A full read under way answers every caller, not only the one that started it (readNow
    // clears `stale` as it starts, so a second caller must wait for `blocking` too).
    while (this.stale || this.blocking) {
      if (this.stale && !this.blocking) this.blocking = this.readNow().finally(() => (this.blocking = null));
      await this.blocking;
    }
    const snapshot = this.current as unknown as Snapshot;
    if (this.pending.size > 0) {
      applyChanges(this.db, snapshot, [...this.pending]);
      this.pending.clear();
      this.dirty = true;
    }
    // Nothing from elsewhere since the last look and this connection's writes applied: the snapshot
    // reflects the counter read with them (what the next session checks the saved file against).
    if (!foreign && !this.reload && !this.behind && this.current === snapshot && this.reflects !== null)
      this.reflects = counter;
    return snapshot;
  }

  /**
   * The snapshot as the file stood when called — what every result is computed from. Like `get`,
   * and when a background re-read is due (a saved snapshot behind the file, another process's
   * commit) it waits for the re-read that covers everything seen so far: the one under way, or the
   * one queued behind it when a commit came during it. Never for later commits, so a writer that
   * keeps committing cannot hold it back for ever. A re-read that failed is done again, awaited.
   */
  async fresh(): Promise<Snapshot> {
    let snapshot = await this.get();
    if (!this.reload && !this.behind) return snapshot;
    const needed = this.reloadsStarted + (this.reload && !this.reloadAgain ? 0 : 1);
    while (this.reloadInstalled < needed && this.reload) await this.reload;
    if (this.reloadInstalled < needed) this.stale = true; // failed or never started: read it now
    snapshot = await this.snapshotNow(true);
    return snapshot;
  }

  private async start(): Promise<void> {
    const started = performance.now();
    const saved = this.cacheFile ? await readSnapshotFile(this.cacheFile, STAMP) : null;
    this.startedFrom = saved ? 'saved' : 'store';
    if (saved) {
      const now = changeCounter(this.db);
      const current = now !== null && saved.changes === now;
      this.install(saved.snapshot, { ms: performance.now() - started, fromCache: true });
      this.reflects = current ? now : null;
      this.behind = !current;
      if (!current) this.startReload();
      return;
    }
    await this.readNow();
  }

  private async readNow(): Promise<void> {
    this.stale = false;
    this.pending.clear(); // the full read sees them
    this.changes.reset();
    const started = performance.now();
    const counter = changeCounter(this.db); // a write from now on moves it past this
    this.install(await this.read(), { ms: performance.now() - started, fromCache: false });
    this.reflects = counter;
    this.behind = false;
    this.save();
  }

  private async read(): Promise<Snapshot> {
    const pause = async () => {
      await yieldToEventLoop();
      if (this.closed) throw new Closed();
    };
    const report = this.options.onProgress;
    let reported = -Infinity;
    const progress = (done: number, total: number): void => {
      const now = performance.now();
      if (done < total && now - reported < PROGRESS_EVERY_MS) return;
      reported = now;
      report?.({ done, total });
    };
    return loadSnapshot(this.db, {
      pause,
      ...(report ? { progress } : {}),
      ...(this.options.loadChunkRows ? { chunkRows: this.options.loadChunkRows } : {}),
    });
  }

  /** A bulk change: the snapshot in place answers, marked behind, until a background re-read replaces it. */
  private reloadBehind(): void {
    this.stale = false;
    this.behind = true;
    this.startReload();
  }

  /** A full read in the background; the current snapshot answers until it is done. */
  private startReload(): void {
    if (this.reload) {
      this.reloadAgain = true;
      return;
    }
    this.touched = new Set();
    const started = performance.now();
    const number = ++this.reloadsStarted;
    this.reload = (async () => {
      // Not on the caller's turn: the count and the first chunk would delay the call that saw the change.
      await yieldToEventLoop();
      const delay = reloadDelayMs();
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      if (this.closed) throw new Closed();
      const counter = changeCounter(this.db);
      const fresh = await this.read();
      const touched = [...(this.touched ?? [])];
      this.touched = null;
      if (touched.length) applyChanges(this.db, fresh, touched);
      const old = this.current;
      if (old && this.pending.size) {
        applyChanges(this.db, old, [...this.pending]);
        this.pending.clear();
      }
      const changed = !old || !(await sameContent(old, fresh, yieldToEventLoop));
      const wasBehind = this.behind;
      this.install(fresh, { ms: performance.now() - started, fromCache: false });
      this.reloadInstalled = number;
      this.reflects = counter;
      this.behind = false;
      this.save();
      // Views that showed answers marked `updating` ask again even when nothing differed.
      if (changed || wasBehind) this.options.onExternalChange?.();
    })()
      .catch((error: unknown) => {
        if (!(error instanceof Closed)) this.log.error('snapshot reload failed', { error });
      })
      .finally(() => {
        this.reload = null;
        this.touched = null;
        if (this.reloadAgain && !this.closed) {
          this.reloadAgain = false;
          this.startReload();
        }
      });
  }

  private install(snapshot: Snapshot, load: { ms: number; fromCache: boolean }): void {
    this.current = snapshot;
    this.dirty = false;
    this.lastLoad = { ...load, rows: snapshot.size };
    this.options.onReplace?.(snapshot);
    this.log.info(load.fromCache ? 'snapshot restored' : 'snapshot loaded', {
      rows: snapshot.size,
      ms: Math.round(load.ms),
      mb: Math.round(snapshot.columnBytes / 1e6),
    });
  }

  private save(): void {
    const file = this.cacheFile;
    const snapshot = this.current;
    if (!file || !snapshot) return;
    const changes = this.behind ? null : this.reflects;
    this.saving = this.saving
      .then(() => writeSnapshotFile(file, snapshot, STAMP, changes))
      .catch((error: unknown) => this.log.warn('could not save the snapshot', { file, error }));
  }

  /**
   * Whether answers come from a saved snapshot known to be behind the file (written by another
   * process while Blotter was closed): the views label them "updating" until the re-read is in.
   */
  get updating(): boolean {
    return this.behind;
  }

  private facts: Promise<(SavedFacts & { updating: boolean }) | null> | null = null;

  /**
   * The saved snapshot's facts (counts per day and type, the summary), read alone — a few KB — for
   * answers before the columns are in memory; `updating` when the file changed since it was saved.
   * Null with no saved snapshot.
   */
  savedFacts(): Promise<(SavedFacts & { updating: boolean }) | null> {
    const file = this.cacheFile;
    if (!file) return Promise.resolve(null);
    return (this.facts ??= readSavedFacts(file, STAMP).then((facts) => {
      if (!facts) return null;
      const now = changeCounter(this.db);
      return { ...facts, updating: now === null || facts.changes !== now };
    }));
  }

  /** Whether a snapshot is in memory (a first read may still be under way). */
  get inMemory(): boolean {
    return this.current !== null;
  }

  /** Whether a background read is under way (tests, benchmark). */
  get reloading(): Promise<void> | null {
    return this.reload;
  }

  /** Stops background work and saves the snapshot if it changed. Call before the database closes. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.current) await this.get(); // the last writes, so the saved snapshot is current
    this.closed = true;
    this.changes.close();
    await this.reload;
    if (this.dirty) this.save();
    await this.saving;
  }
}
