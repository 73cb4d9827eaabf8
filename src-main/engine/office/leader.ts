/**
 * The office's sync leader for one area, as the sync service sees it (sync/syncService.ts
 * `OfficeSync`): the area's lease (`sync:area:<id>`, heartbeat every third of the TTL; lost →
 * the run stops), the office limiter as the requester's gate (the key's HMAC, the server's
 * clock), and the commit sink every page and the run's end go through.
 *
 * The sink: the sync's write (applyPage, finalize) runs against this folder's replica inside a
 * SQLite transaction that is always rolled back — temporary triggers note what it touched — and
 * what it wrote (whole incident rows, coverage days, the area's sync times, the run and all its
 * jobs) goes to PostgreSQL in one fenced transaction (lease.ts): a leader that lost its lease
 * commits nothing. Only then does the folder take the run's job state, and the replica pulls
 * the page's incidents and coverage like every other desktop's. So incidents reach this file only
 * through the pull, and the job state in PostgreSQL (`sync_state`) always matches the office
 * archive: the next leader adopts it and resumes where the archive stands.
 */
import type pg from 'pg';
import { createLogger, type Logger } from '../log';
import type { Db } from '../store/database';
import { ALL_COLUMNS, type IncidentRow } from '../store/incidents/incidentRow';
import type { CommitSink } from '../sync/runner';
import { decodeProfile, encodeProfile, writeProfile, type ProfileMirror } from '../sync/serverProfile';
import type { RequestGate } from '../sync/requester';
import type { OfficeLeading, OfficeSync } from '../sync/syncService';
import {
  acquireLease,
  fencedWrite,
  heartbeat,
  LEASE_TTL_MS,
  releaseLease,
  StaleLeaderError,
  type Lease,
} from './lease';
import { createOfficeLimiter, keyHmac } from './limiter';
import { officeDescriptions } from './descriptionSink';
import { putOfficeIncidents } from './officeArchive';
import { isUnreachable, OfficeUnreachableError, type OfficePool } from './officeDb';

export const OFFICE_DOWN = 'PostgreSQL unreachable: syncs paused, working on the replica.';

/** Office failures as the run reports them (runner.ts `runErrorOf`). */
function asRunError(e: unknown): unknown {
  if (e instanceof StaleLeaderError)
    return Object.assign(e, {
      runError: {
        code: 'conflict',
        message: `This desktop lost the area's lease (paused or cut off); its last page was not committed and another desktop leads the sync now.`,
        fatal: false,
      },
    });
  if (e instanceof OfficeUnreachableError || isUnreachable(e))
    return Object.assign(new Error((e as Error).message), {
      runError: { code: 'office_unreachable', message: OFFICE_DOWN, fatal: true },
    });
  return e;
}

async function officeStep<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw asRunError(e);
  }
}

export const areaLease = (areaId: number): string => `sync:area:${areaId}`;

/** A run's state as the office keeps it: its sync_runs row and its sync_jobs rows. */
export type SyncState = {
  holder: string;
  token: number;
  run: Record<string, unknown> & { id: number; state: string; started_at: number; kind: string };
  jobs: (Record<string, unknown> & { id: number; parent_id: number | null; root_id: number | null })[];
};

type Touched = {
  incidents: IncidentRow[];
  coverage: { area_id: number; tile: string; day: string; status: string; checked_at: number }[];
  areas: {
    id: number;
    last_synced_at: number | null;
    backfilled_at: number | null;
    deep_refreshed_at: number | null;
  }[];
  run: SyncState['run'] | undefined;
  jobs: SyncState['jobs'];
};

const CAPTURE = /* sql */ `
CREATE TEMP TABLE office_touched (tbl TEXT NOT NULL, key TEXT NOT NULL, PRIMARY KEY (tbl, key)) WITHOUT ROWID;
CREATE TEMP TRIGGER office_touch_i_ins AFTER INSERT ON main.incidents
  BEGIN INSERT OR IGNORE INTO office_touched VALUES ('incidents', NEW.cdid); END;
CREATE TEMP TRIGGER office_touch_i_upd AFTER UPDATE ON main.incidents
  BEGIN INSERT OR IGNORE INTO office_touched VALUES ('incidents', NEW.cdid); END;
CREATE TEMP TRIGGER office_touch_c_ins AFTER INSERT ON main.coverage
  BEGIN INSERT OR IGNORE INTO office_touched VALUES ('coverage', json_array(NEW.area_id, NEW.tile, NEW.day)); END;
CREATE TEMP TRIGGER office_touch_c_upd AFTER UPDATE ON main.coverage
  BEGIN INSERT OR IGNORE INTO office_touched VALUES ('coverage', json_array(NEW.area_id, NEW.tile, NEW.day)); END;
CREATE TEMP TRIGGER office_touch_a_upd AFTER UPDATE ON main.areas
  BEGIN INSERT OR IGNORE INTO office_touched VALUES ('areas', NEW.id); END;
`;

const ROLLED_BACK = Symbol('rolled back');

/**
 * Runs `write` in a transaction that is rolled back, returning what it returned and every row it
 * wrote (the temp table and triggers are created inside it, so they leave with it).
 */
export function dryRun<T>(db: Db, runId: number, write: () => T): { out: T; touched: Touched } {
  let result: { out: T; touched: Touched } | null = null;
  try {
    db.transaction(() => {
      db.exec(CAPTURE);
      const out = write();
      const keys = (tbl: string) =>
        JSON.stringify(
          db
            .prepare<[string], { key: string }>('SELECT key FROM temp.office_touched WHERE tbl = ?')
            .all(tbl)
            .map((r) => r.key),
        );
      const touched: Touched = {
        incidents: db
          .prepare<[string], IncidentRow>(
            `SELECT ${ALL_COLUMNS.join(', ')} FROM incidents WHERE cdid IN (SELECT CAST(value AS INTEGER) FROM json_each(?))`,
          )
          .all(keys('incidents')),
        coverage: db
          .prepare<[string], Touched['coverage'][number]>(
            `SELECT c.area_id, c.tile, c.day, c.status, c.checked_at FROM coverage c
               JOIN json_each(?) k ON json_extract(k.value, '$[0]') = c.area_id
                AND json_extract(k.value, '$[1]') = c.tile AND json_extract(k.value, '$[2]') = c.day`,
          )
          .all(keys('coverage')),
        areas: db
          .prepare<[string], Touched['areas'][number]>(
            `SELECT id, last_synced_at, backfilled_at, deep_refreshed_at FROM areas
              WHERE id IN (SELECT CAST(value AS INTEGER) FROM json_each(?))`,
          )
          .all(keys('areas')),
        run: db.prepare<[number], SyncState['run']>('SELECT * FROM sync_runs WHERE id = ?').get(runId),
        jobs: db
          .prepare<[number], SyncState['jobs'][number]>(
            'SELECT * FROM sync_jobs WHERE run_id = ? ORDER BY id',
          )
          .all(runId),
      };
      result = { out, touched };
      throw ROLLED_BACK;
    }).immediate();
  } catch (e) {
    if (e !== ROLLED_BACK) throw e;
  }
  return result!;
}

/** Writes what a dry run touched to the office archive, inside the leader's fenced transaction. */
async function writeOffice(c: pg.ClientBase, lease: Lease, areaId: number, t: Touched): Promise<void> {
  await putOfficeIncidents(c, t.incidents);
  if (t.coverage.length > 0)
    await c.query(
      `INSERT INTO coverage (area_id, tile, day, status, checked_at)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::bigint[])
       ON CONFLICT (area_id, tile, day) DO UPDATE SET status = EXCLUDED.status, checked_at = EXCLUDED.checked_at`,
      [
        t.coverage.map((r) => r.area_id),
        t.coverage.map((r) => r.tile),
        t.coverage.map((r) => r.day),
        t.coverage.map((r) => r.status),
        t.coverage.map((r) => r.checked_at),
      ],
    );
  for (const a of t.areas)
    await c.query(
      'UPDATE areas SET last_synced_at = $2, backfilled_at = $3, deep_refreshed_at = $4 WHERE id = $1',
      [a.id, a.last_synced_at, a.backfilled_at, a.deep_refreshed_at],
    );
  if (t.run)
    await c.query(
      `INSERT INTO sync_state (area_id, token, holder, run, jobs) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (area_id) DO UPDATE SET token = EXCLUDED.token, holder = EXCLUDED.holder, run = EXCLUDED.run,
         jobs = EXCLUDED.jobs, updated_at = clock_timestamp()`,
      [areaId, lease.token, lease.holder, JSON.stringify(t.run), JSON.stringify(t.jobs)],
    );
}

const columnsOf = (db: Db, table: string): Set<string> =>
  new Set(
    db
      .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
      .all()
      .map((c) => c.name),
  );

/** Upserts rows by id, keeping only the columns this file has. */
function upsertById(db: Db, table: string, row: Record<string, unknown>, known: Set<string>): void {
  const cols = Object.keys(row).filter((c) => known.has(c));
  db.prepare(
    `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})
     ON CONFLICT (id) DO UPDATE SET ${cols
       .filter((c) => c !== 'id')
       .map((c) => `${c} = excluded.${c}`)
       .join(', ')}`,
  ).run(Object.fromEntries(cols.map((c) => [c, row[c] ?? null])));
}

/** The run's job state as committed to the office, now this folder's too (same ids: this leader's). */
export function keepJobState(db: Db, run: SyncState['run'], jobs: SyncState['jobs']): void {
  const runCols = columnsOf(db, 'sync_runs');
  const jobCols = columnsOf(db, 'sync_jobs');
  db.transaction(() => {
    upsertById(db, 'sync_runs', run, runCols);
    for (const j of jobs) upsertById(db, 'sync_jobs', j, jobCols);
  }).immediate();
}

/**
 * A run another leader left in the office (`sync_state`), taken into this folder under new ids
 * (the other desktop's ids mean nothing here), replacing this folder's unfinished runs of the
 * area, which the office's state supersedes. A finished office run only cancels those.
 */
export function adoptJobState(db: Db, areaId: number, state: SyncState | null): number | null {
  const runCols = columnsOf(db, 'sync_runs');
  const jobCols = columnsOf(db, 'sync_jobs');
  return db
    .transaction(() => {
      const unfinished = db
        .prepare<[number], { id: number }>("SELECT id FROM sync_runs WHERE area_id = ? AND state != 'done'")
        .all(areaId)
        .map((r) => r.id);
      if (!state || state.run.state === 'done') {
        for (const id of unfinished)
          db.prepare(
            "UPDATE sync_runs SET state = 'cancelled', error = 'Superseded by the office''s sync.' WHERE id = ?",
          ).run(id);
        return null;
      }
      for (const id of unfinished) db.prepare('DELETE FROM sync_runs WHERE id = ?').run(id);
      const insert = (table: string, row: Record<string, unknown>, known: Set<string>): number => {
        const cols = Object.keys(row).filter((c) => known.has(c) && c !== 'id');
        return Number(
          db
            .prepare(
              `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`,
            )
            .run(Object.fromEntries(cols.map((c) => [c, row[c] ?? null]))).lastInsertRowid,
        );
      };
      const runId = insert('sync_runs', { ...state.run, area_id: areaId }, runCols);
      const ids = new Map<number, number>();
      for (const j of [...state.jobs].sort((a, b) => a.id - b.id)) {
        const mapped = (id: number | null) => (id === null ? null : (ids.get(id) ?? null));
        ids.set(
          j.id,
          insert(
            'sync_jobs',
            { ...j, run_id: runId, parent_id: mapped(j.parent_id), root_id: mapped(j.root_id) },
            jobCols,
          ),
        );
      }
      return runId;
    })
    .immediate();
}

export async function readSyncState(pool: OfficePool, areaId: number): Promise<SyncState | null> {
  const r = await pool.query<SyncState>(
    'SELECT holder, token, run, jobs FROM sync_state WHERE area_id = $1',
    [areaId],
  );
  return r.rows[0] ?? null;
}

/** The office's server profiles, now this folder's: a new leader starts from what the others learned. */
export async function takeOfficeProfiles(pool: OfficePool, db: Db): Promise<void> {
  const r = await pool.query<{ base_url: string; profile: unknown; updated_at: string }>(
    'SELECT base_url, profile, updated_at FROM server_profiles',
  );
  for (const row of r.rows)
    writeProfile(db, decodeProfile(row.base_url, JSON.stringify(row.profile)), Number(row.updated_at));
}

/** What a leader learned of a server, kept in the office at once (the last word wins). */
export function officeProfileMirror(pool: OfficePool, now: () => number = Date.now): ProfileMirror {
  return (p) =>
    officeStep(async () => {
      await pool.query(
        `INSERT INTO server_profiles (base_url, profile, updated_at) VALUES ($1, $2::jsonb, $3)
         ON CONFLICT (base_url) DO UPDATE SET profile = EXCLUDED.profile, updated_at = EXCLUDED.updated_at`,
        [p.baseUrl, encodeProfile(p), now()],
      );
    });
}

export type LeaderDeps = {
  pool: () => Promise<OfficePool>;
  db: Db;
  officeId: string;
  holder: string;
  /** The replica's pull (serialized by the office service). */
  pull: () => Promise<unknown>;
  ttlMs?: number;
  /** How long a follower waits between looks at the office (it pulls each time). */
  followEveryMs?: number;
  /** Where a description shown but not kept is said (descriptionSink.ts). */
  log?: Logger;
};

/** One commit at a time per process: a page's dry run, fenced write and pull never interleave. */
function serializer() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const next = tail.then(work, work);
    tail = next.catch(() => undefined);
    return next;
  };
}

export function createOfficeLeader(d: LeaderDeps): OfficeSync & {
  /** Test seam: stops a leadership's heartbeat as a paused process would. */
  paused: Set<number>;
} {
  const ttl = d.ttlMs ?? LEASE_TTL_MS;
  const serial = serializer();
  const paused = new Set<number>();

  function sinkFor(pool: OfficePool, lease: Lease, areaId: number): CommitSink {
    return {
      commit: <T>(runId: number, write: () => T): Promise<T> =>
        serial(async () => {
          const { out, touched } = dryRun(d.db, runId, write);
          await officeStep(() => fencedWrite(pool, lease, (c) => writeOffice(c, lease, areaId, touched)));
          if (touched.run) keepJobState(d.db, touched.run, touched.jobs);
          await officeStep(d.pull);
          return out;
        }),
    };
  }

  function gateFor(pool: OfficePool, apiKey: string): RequestGate {
    const limiter = createOfficeLimiter(pool, keyHmac(apiKey, d.officeId), d.holder);
    return {
      async admit(rate, signal) {
        for (;;) {
          const a = await officeStep(() => limiter.admit(rate));
          if ('id' in a) return a.id;
          await new Promise<void>((resolve, reject) => {
            const t = setTimeout(resolve, Math.min(a.retryInMs, 5_000));
            signal?.addEventListener(
              'abort',
              () => {
                clearTimeout(t);
                reject(new Error('stopped'));
              },
              { once: true },
            );
          });
        }
      },
      end: (id, status) => limiter.end(id, status).catch(() => undefined),
    };
  }

  return {
    paused,
    lead: (areaId, apiKey, askedAt) => officeStep(() => lead(areaId, apiKey, askedAt)),
    wait: (signal) => officeStep(() => wait(signal)),
    pull: async () => {
      await officeStep(d.pull);
    },
    descriptions: officeDescriptions(d.pool, d.pull, d.log ?? createLogger('office')),
  };

  async function lead(areaId: number, apiKey: string, askedAt: number): ReturnType<OfficeSync['lead']> {
    {
      const pool = await d.pool();
      const before = await readSyncState(pool, areaId);
      // Synced since this sync was asked for (by whichever desktop): nothing to do but pull.
      const synced = (s: SyncState | null) =>
        s !== null && s.run.state === 'done' && Number(s.run.finished_at ?? 0) >= askedAt;
      if (synced(before)) return { synced: summaryOf(before!) };
      const lease = await acquireLease(pool, areaLease(areaId), d.holder, ttl);
      if (!lease) {
        const holder = await pool.query<{ holder: string }>(
          'SELECT holder FROM leader_lease WHERE name = $1',
          [areaLease(areaId)],
        );
        return { heldBy: holder.rows[0]?.holder ?? 'another desktop' };
      }
      // The lease is ours: what the office holds now decides (a leader may have finished meanwhile).
      const state = await readSyncState(pool, areaId);
      if (synced(state)) {
        await releaseLease(pool, lease);
        return { synced: summaryOf(state!) };
      }
      const lost = new AbortController();
      const beat = setInterval(() => {
        if (paused.has(areaId)) return;
        // A dropped connection is not a lost lease: the next beat asks again on a new one (the
        // fence still refuses a write once the lease has expired). A refusal is a lost lease.
        heartbeat(pool, lease, ttl)
          .then((ok) => ok || lost.abort())
          .catch((e: unknown) => isUnreachable(e) || lost.abort());
      }, ttl / 3);
      beat.unref();
      try {
        await d.pull();
        adoptJobState(d.db, areaId, state);
        await takeOfficeProfiles(pool, d.db);
      } catch (e) {
        clearInterval(beat);
        await releaseLease(pool, lease).catch(() => undefined);
        throw e;
      }
      const leading: OfficeLeading = {
        token: lease.token,
        sink: sinkFor(pool, lease, areaId),
        gate: gateFor(pool, apiKey),
        keepProfile: officeProfileMirror(pool),
        lost: lost.signal,
        async release() {
          clearInterval(beat);
          await releaseLease(pool, lease).catch(() => undefined);
        },
      };
      return { leading };
    }
  }

  async function wait(signal?: AbortSignal): Promise<void> {
    {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, d.followEveryMs ?? 2_000);
        signal?.addEventListener(
          'abort',
          () => {
            clearTimeout(t);
            resolve();
          },
          { once: true },
        );
      });
      await d.pull();
    }
  }
}

/** What a follower says of a run another desktop led. */
function summaryOf(s: SyncState) {
  const n = (k: string) => Number(s.run[k] ?? 0);
  return {
    holder: s.holder,
    runId: s.run.id,
    kind: s.run.kind as 'backfill' | 'refresh',
    new: n('new_count'),
    updated: n('updated_count'),
    removed: n('removed_count'),
    lowerBound: (s.run.lower_bound as number | null) ?? null,
  };
}
