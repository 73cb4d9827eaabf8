/**
 * Which process syncs which area of this data folder. A run takes its area's row in sync_locks
 * (BEGIN IMMEDIATE, so two processes cannot both take it) and keeps it fresh with a heartbeat; a
 * second process asking for the same area is refused with the holder's pid: "already syncing in
 * another Blotter (pid N)" — the CLI exits 7, the app answers `already_syncing`. A row whose
 * holder stopped (no heartbeat for STALE_MS, or a pid on this host that is gone) is taken over.
 * Different areas sync side by side and share the key's rate budget (rateLedger.ts).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { EngineError } from '../errors';
import type { Db } from '../store/database';
import { atOnce, type InTurn } from './runTypes';

/** This process, as the request log and the locks know it. */
export const PROCESS_HOLDER = `${process.pid}-${randomUUID()}`;

export const HEARTBEAT_MS = 5_000;
const STALE_MS = 30_000;

type LockRow = { holder: string; pid: number; host: string; heartbeat_at: number };

export class AlreadySyncingError extends EngineError {
  constructor(
    readonly areaId: number,
    readonly pid: number,
  ) {
    super('already_syncing', `Area ${areaId} is already syncing in another Blotter (pid ${pid}).`);
    this.name = 'AlreadySyncingError';
  }
}

function alive(row: LockRow, now: number): boolean {
  if (now - row.heartbeat_at > STALE_MS) return false;
  if (row.host !== hostname()) return true;
  try {
    process.kill(row.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the area for this process or throws AlreadySyncingError; returns the release function. */
export function takeSyncLock(
  db: Db,
  areaId: number,
  now: () => number = Date.now,
  /** The heartbeat's and release's writes in the engine's write turn (store/writeTurns.ts). */
  inTurn: InTurn = atOnce,
): () => void {
  const get = db.prepare<[number], LockRow>(
    'SELECT holder, pid, host, heartbeat_at FROM sync_locks WHERE area_id = ?',
  );
  const put = db.prepare(
    `INSERT INTO sync_locks (area_id, holder, pid, host, heartbeat_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (area_id) DO UPDATE SET holder = excluded.holder, pid = excluded.pid, host = excluded.host,
       heartbeat_at = excluded.heartbeat_at`,
  );
  db.transaction(() => {
    const row = get.get(areaId);
    if (row && row.holder !== PROCESS_HOLDER && alive(row, now()))
      throw new AlreadySyncingError(areaId, row.pid);
    put.run(areaId, PROCESS_HOLDER, process.pid, hostname(), now());
  }).immediate();
  const beat = db.prepare('UPDATE sync_locks SET heartbeat_at = ? WHERE area_id = ? AND holder = ?');
  const timer = setInterval(() => {
    // busy or closing: the next beat tries again; a lock left stale is taken over, never wrong
    inTurn(() => beat.run(now(), areaId, PROCESS_HOLDER)).catch(() => undefined);
  }, HEARTBEAT_MS);
  timer.unref();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    clearInterval(timer);
    // the database is gone or busy: the row goes stale and is taken over
    inTurn(() =>
      db.prepare('DELETE FROM sync_locks WHERE area_id = ? AND holder = ?').run(areaId, PROCESS_HOLDER),
    ).catch(() => undefined);
  };
}
