/**
 * An office bulk catch-up (many incidents, a large share of the replica: replica.ts `isBulk`) off the
 * engine's call path (issue 31). Its one local transaction — indexes set aside, the rows, the
 * indexes and text index rebuilt, the cursor — runs on a helper thread's own writer connection
 * (pullWorker.ts) while this thread holds the write turns (store/writeTurns.ts: a sync page or a
 * settings save meanwhile waits its turn). This thread reads the pages from PostgreSQL in the
 * pull's snapshot and passes each on as its JSON text, never parsed here; at most two pages wait
 * on the thread at a time. The log is checkpointed in the background afterwards. Cancel (the
 * pull's signal) terminates the thread wherever it is; its never-committed transaction closes with
 * its connection, and the turns are given back once it has exited.
 */
import type pg from 'pg';
import { deferCheckpoint } from '../store/backgroundCheckpoint';
import type { Db } from '../store/database';
import type { WriteTurns } from '../store/writeTurns';
import { settleOnce, startWorkerThread, workerEntry } from '../workerThreads';
import type { FromPullWorker, PullWorkerData, ToPullWorker } from './pullWorker';

/** Pages read ahead of the thread's writes: the next page is read while one is written. */
const PAGES_AHEAD = 2;

export type CatchUpInput = {
  client: pg.PoolClient;
  db: Db;
  turns: WriteTurns;
  /** The incidents' SELECT (its columns and change_seq), without WHERE. */
  select: string;
  cursor: number;
  pageSize: number;
  /** Hears each page's incidents once the thread applied them (the pull's progress). */
  onApplied?: (incidents: number) => void;
  /** Cancel: the thread is ended at once; its transaction, never committed, goes with it. */
  signal?: AbortSignal;
};

/** A pull stopped by cancelOfficePull (replica.ts, bulkCatchUp.ts). */
export class OfficePullCancelled extends Error {
  override name = 'OfficePullCancelled';
  constructor() {
    super(
      'The office pull was cancelled: the part it was writing was not kept (the replica is as it was before that part), and the next pull brings the rest.',
    );
  }
}

/** Applies every incident after `cursor` in one transaction on the helper thread; the rows taken. */
export function bulkCatchUp(input: CatchUpInput): Promise<number> {
  return input.turns.hold(async () => {
    const checkpoint = deferCheckpoint(input.db);
    try {
      return await catchUpOnThread(input);
    } finally {
      void checkpoint.release();
    }
  });
}

async function catchUpOnThread(input: CatchUpInput): Promise<number> {
  const { client, db, select, pageSize, onApplied, signal } = input;
  let { cursor } = input;
  if (signal?.aborted) throw new OfficePullCancelled();
  const worker = startWorkerThread(workerEntry(import.meta.url, 'pullWorker.ts', 'pullWorker.js'), {
    dbFile: db.name,
  } satisfies PullWorkerData);
  const send = (m: ToPullWorker) => worker.postMessage(m);
  let failure: Error | null = null;
  let started = false;
  let applied = 0;
  let taken = 0;
  let done: number | null = null;
  let cancelled = false;
  let wake: (() => void) | null = null;
  const woken = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const { settle } = settleOnce(worker, (error) => (failure ??= error), {
    stopped: (code) => new Error(`the office pull's helper thread stopped (exit ${code}) before it answered`),
    terminate: false,
  });
  worker.on('error', woken);
  worker.on('exit', woken);
  worker.on('message', (m: FromPullWorker) => {
    // A page the ended thread applied before it stopped is rolled back with it (a commit that got
    // through first is still heard).
    if (cancelled && m.type !== 'done') return;
    if (m.type === 'started') started = true;
    else if (m.type === 'applied') {
      applied += 1;
      taken += m.incidents;
      onApplied?.(m.incidents);
    } else if (m.type === 'done') settle(() => (done = m.incidents));
    else settle(() => (failure = Object.assign(new Error(m.message), m.code ? { code: m.code } : {})));
    woken();
  });
  // Cancel ends the thread where it is (a page, the index rebuild): SQLite rolls back the
  // transaction it never committed as its connection closes with the thread.
  const onAbort = () => {
    cancelled = true;
    void worker.terminate();
    woken();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  /** Waits on the event loop until `ready` (or the thread failed, or the pull was cancelled). */
  const until = async (ready: () => boolean): Promise<void> => {
    while (!failure && !cancelled && !ready()) await new Promise<void>((resolve) => (wake = resolve));
    if (cancelled) throw new OfficePullCancelled();
    if (failure) throw failure;
  };

  try {
    await until(() => started);
    let sent = 0;
    for (;;) {
      // A page comes as one JSON text (JSON.parse is much cheaper than the driver's per-field
      // parsing; float8 and bigint values keep every digit), with its size and last change number.
      const { rows } = await client.query<{ page: string; n: number; last: number | null }>(
        `SELECT coalesce(json_agg(t ORDER BY t.change_seq), '[]')::text AS page, count(*)::int AS n,
                max(t.change_seq)::float8 AS last
           FROM (${select} WHERE change_seq > $1 ORDER BY change_seq LIMIT $2) t`,
        [cursor, pageSize],
      );
      const page = rows[0]!;
      if (cancelled) throw new OfficePullCancelled();
      if (page.n === 0) break;
      await until(() => sent - applied < PAGES_AHEAD);
      send({ type: 'page', text: page.page });
      sent += 1;
      cursor = page.last!;
      if (page.n < pageSize) break;
    }
    send({ type: 'finish' });
    await until(() => done !== null);
    return done!;
  } catch (error) {
    // Rolled back on the thread's connection (abort, its own failure, or its end on cancel),
    // before the turn is given back.
    if (!failure && !cancelled) send({ type: 'abort' });
    await new Promise<void>((resolve) => {
      if (worker.threadId === -1) resolve();
      else worker.once('exit', () => resolve());
    });
    // Cancelled as its commit went through: the rows are here with their cursor, so say so.
    const seq = () => db.prepare('SELECT seq_incidents FROM office_link WHERE id = 1').pluck().get();
    if (cancelled && seq() !== input.cursor) return done ?? taken;
    throw error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
