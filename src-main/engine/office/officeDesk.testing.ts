/**
 * For office tests and the scale test's child processes: one desktop of an office — its data
 * folder (a replica joined to the office database), the office leader (leader.ts), and a sync
 * service whose syncs lead or follow through it, exactly as services.ts wires the engine's
 * (the office service's pull: serialized, alerts evaluated on what it brings; the sync's pages
 * evaluated by the alerts through its page hook).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { evaluateAlerts } from '../alerts/evaluate';
import { evaluatePulled } from '../alerts/pulled';
import type { FetchLike } from '../api/source';
import { createLogger } from '../log';
import { openDatabase, type Db } from '../store/database';
import { createSyncService, type Connection, type SyncService } from '../sync/syncService';
import { createOfficeLeader } from './leader';
import { migrateOffice } from './migrate';
import { openOfficePool, type OfficePool } from './officeDb';
import { parseOfficeUrl } from './officeUrl';
import { linkOffice, pullReplica, readOfficeLink } from './replica';

export type DeskOptions = {
  dir: string;
  pgUrl: string;
  password: string;
  baseUrl: string;
  key: string;
  ratePerMinute: number;
  windowDays: number;
  /** The sync's clock (tests anchor it at the simulator's time). */
  now: () => number;
  ttlMs?: number;
  followEveryMs?: number;
  fetch?: FetchLike;
  holder?: string;
};

export type Desk = {
  db: Db;
  pool: OfficePool;
  service: SyncService;
  leader: ReturnType<typeof createOfficeLeader>;
  conn: Connection;
  pull(): Promise<unknown>;
  close(): Promise<void>;
};

export async function openDesk(o: DeskOptions): Promise<Desk> {
  const pool = openOfficePool(parseOfficeUrl(o.pgUrl), o.password, 4);
  const schema = await migrateOffice(pool);
  mkdirSync(o.dir, { recursive: true });
  const db = openDatabase(path.join(o.dir, 'blotter.sqlite'));
  if (!readOfficeLink(db)) linkOffice(db, o.pgUrl, schema.officeId, Date.now());
  let pulling: Promise<unknown> = Promise.resolve();
  const pull = () => {
    const go = () => pullReplica(pool, db, Date.now, { onIncidents: (fresh) => evaluatePulled(db, fresh) });
    const next = pulling.then(go, go);
    pulling = next.catch(() => undefined);
    return next;
  };
  const leader = createOfficeLeader({
    pool: async () => pool,
    db,
    officeId: schema.officeId,
    holder: o.holder ?? `desk-${randomUUID().slice(0, 8)}`,
    pull,
    ...(o.ttlMs !== undefined ? { ttlMs: o.ttlMs } : {}),
    ...(o.followEveryMs !== undefined ? { followEveryMs: o.followEveryMs } : {}),
  });
  const conn: Connection = {
    baseUrl: o.baseUrl,
    key: o.key,
    limits: { ratePerMinute: o.ratePerMinute, windowDays: o.windowDays },
    fetch: o.fetch ?? ((u, i) => fetch(u, i)),
  };
  const service = createSyncService({
    db,
    log: createLogger('office-desk'),
    emit: () => undefined,
    connect: async () => conn,
    now: o.now,
    backoff: { baseMs: 20, capMs: 200, maxAttempts: 8 },
    office: () => leader,
    onPageCommitted: evaluateAlerts,
  });
  await pull();
  return {
    db,
    pool,
    service,
    leader,
    conn,
    pull,
    async close() {
      await service.close();
      await pulling.catch(() => undefined);
      db.close();
      await pool.end();
    },
  };
}
