/**
 * The office service, built once with the engine (services.ts): joins this data folder to an
 * office database (address checked, password into the keychain, schema migrated under its lock,
 * the folder linked and pulled), says the link's status, pulls the replica, and leaves (the
 * replica stays as a standalone archive; the password leaves the keychain). The pool is opened on
 * first use and closed with the engine. Errors keep their meaning for handlers/office.ts.
 */
import type { EngineCore } from '../core';
import type { OfficeStatus } from '../../../src-shared/officeCalls';
import { acquireLease, currentLeader, heartbeat } from './lease';
import { migrateOffice } from './migrate';
import { OfficeUnreachableError, openOfficePool, reaching, type OfficePool } from './officeDb';
import { parseOfficeUrl, type OfficeAddress } from './officeUrl';
import { pullProgress } from './pullProgress';
import {
  linkOffice,
  OfficePullCancelled,
  pullReplica,
  readOfficeLink,
  skippedRows,
  unlinkOffice,
  type PullCounts,
  type PulledIncident,
} from './replica';
import { hostname } from 'node:os';
import type { Db } from '../store/database';
import type { WriteTurns } from '../store/writeTurns';
import { registerSecret } from '../redact';
import { createAreaStore } from '../areas/areaStore';
import type { AreaEdits } from '../areas/areaEdits';
import { officeAreaEdits } from './areaEdits';
import { createOfficeLeader } from './leader';
import { officeIsEmpty, seedOffice } from './seed';
import { PROCESS_HOLDER } from '../sync/syncLock';
import type { OfficeSync } from '../sync/syncService';

/** The keychain account of a data folder's office database password. */
export const officePasswordAccount = (profileId: string): string => `office-db:${profileId}`;

/** This process as the office's leases and ledger name it. */
const HOLDER = `${hostname()}:${PROCESS_HOLDER}`;

/** The lease name of the office's sync leader. */
export const SYNC_LEADER = 'sync';
/** The lease of the desktop that mails the office's scheduled reports (only the leader sends). */
export const REPORT_MAIL_LEADER = 'report-mail';
/** Held across the engine's minute-by-minute looks, so the leader stays while it runs. */
export const REPORT_MAIL_TTL_MS = 5 * 60_000;

export class OfficeReplicaError extends Error {
  override name = 'OfficeReplicaError';
}

export class LocalArchiveNotEmptyError extends Error {
  override name = 'LocalArchiveNotEmptyError';
}

export function createOfficeService(
  core: Pick<EngineCore, 'db' | 'settings' | 'secrets' | 'emit'> & { log?: EngineCore['log'] },
  hooks: {
    /** A pull wrote incidents (the query service re-reads what it holds). */
    incidentsWritten?: () => void;
    /**
     * Inside each pulled page's transaction, the incidents it brought that this replica did not
     * hold: the engine's alerts (services.ts), so they are evaluated as a sync's commit is.
     */
    onIncidentsPulled?: (tx: Db, fresh: readonly PulledIncident[]) => void;
    /** The engine's write turns: a pull's writes take theirs; a bulk catch-up holds them. */
    writeTurns?: WriteTurns;
  } = {},
  /** Tests shorten the lease and the follower's pause. */
  leaderOptions: { ttlMs?: number; followEveryMs?: number; holder?: string } = {},
) {
  const holder = leaderOptions.holder ?? HOLDER;
  const incidentsWritten = hooks.incidentsWritten ?? (() => undefined);
  const pulledHook = hooks.onIncidentsPulled;
  const onIncidents = pulledHook
    ? (fresh: readonly PulledIncident[]) => pulledHook(core.db, fresh)
    : undefined;

  const account = () => officePasswordAccount(core.settings.profileId());
  let open: { url: string; pool: OfficePool } | null = null;

  async function poolFor(address: OfficeAddress, password?: string | null): Promise<OfficePool> {
    if (open?.url === address.url && password === undefined) return open.pool;
    await close();
    const secret = password !== undefined ? password : await core.secrets.get(account());
    // Like the API key: any log line or error that would carry it says REDACTED instead.
    if (secret) registerSecret(secret);
    open = { url: address.url, pool: openOfficePool(address, secret) };
    return open.pool;
  }

  async function close(): Promise<void> {
    const o = open;
    open = null;
    await o?.pool.end().catch(() => undefined);
  }

  const localCount = (table: string): number =>
    core.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;

  async function status(): Promise<OfficeStatus> {
    const link = readOfficeLink(core.db);
    const base: OfficeStatus = {
      joined: !!link,
      url: link?.url ?? null,
      officeId: link?.office_id ?? null,
      joinedAt: link?.joined_at ?? null,
      pulledAt: link?.pulled_at ?? null,
      reachable: null,
      problem: null,
      schemaVersion: null,
      officeIncidents: null,
      replicaIncidents: localCount('incidents'),
      leader: null,
      ...(link ? { skipped: skippedRows(core.db) } : {}),
    };
    if (!link) return base;
    const address = parseOfficeUrl(link.url);
    try {
      return await reaching(address, async () => {
        const pool = await poolFor(address);
        const schema = await pool.query<{ version: number }>('SELECT version FROM office_schema');
        const count = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM incidents');
        const leader = await currentLeader(pool, SYNC_LEADER);
        const leases = await pool.query<{ name: string; holder: string; ms: number }>(
          `SELECT name, holder, (extract(epoch FROM expires_at - clock_timestamp()) * 1000)::float8 AS ms
             FROM leader_lease WHERE name LIKE 'sync:area:%' AND expires_at > clock_timestamp() ORDER BY name`,
        );
        const used = await pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM request_ledger
            WHERE (ended_at IS NULL AND at > clock_timestamp() - interval '2 minutes')
               OR ended_at > clock_timestamp() - interval '1 minute'`,
        );
        const seq = await pool.query<{ n: number }>(
          `SELECT ((SELECT count(*) FROM areas WHERE change_seq > $1) + (SELECT count(*) FROM coverage WHERE change_seq > $2)
                 + (SELECT count(*) FROM incidents WHERE change_seq > $3) + (SELECT count(*) FROM deletions WHERE change_seq > $4))::int AS n`,
          [link.seq_areas, link.seq_coverage, link.seq_incidents, link.seq_deletions],
        );
        return {
          ...base,
          reachable: true,
          schemaVersion: schema.rows[0]?.version ?? null,
          officeIncidents: count.rows[0]?.n ?? 0,
          leader,
          holder: HOLDER,
          leaders: leases.rows.map((l) => ({
            areaId: Number(l.name.slice('sync:area:'.length)),
            holder: l.holder,
            mine: l.holder === HOLDER,
            expiresInMs: l.ms,
          })),
          requestsLastMinute: used.rows[0]?.n ?? 0,
          behind: seq.rows[0]?.n ?? 0,
        };
      });
    } catch (e) {
      if (e instanceof OfficeUnreachableError) return { ...base, reachable: false, problem: e.message };
      throw e;
    }
  }

  /** One pull at a time in this process (the leader's commits, followers, the app's calls). */
  let pulling: Promise<unknown> = Promise.resolve();
  function pull(): Promise<PullCounts> {
    const next = pulling.then(pullNow, pullNow);
    pulling = next.catch(() => undefined);
    return next;
  }

  /** The running pull's cancel (cancelOfficePull); null between pulls. */
  let running: AbortController | null = null;

  async function pullNow(): Promise<PullCounts> {
    const link = readOfficeLink(core.db);
    if (!link) throw new Error('This data folder is not joined to an office database.');
    const address = parseOfficeUrl(link.url);
    const before = skippedRows(core.db, 0).count;
    const cancel = (running = new AbortController());
    const progress = pullProgress(core.emit);
    let counts: PullCounts;
    try {
      counts = await reaching(address, async () =>
        pullReplica(await poolFor(address), core.db, Date.now, {
          ...(onIncidents ? { onIncidents } : {}),
          ...(hooks.writeTurns ? { writeTurns: hooks.writeTurns } : {}),
          onProgress: progress.running,
          signal: cancel.signal,
        }),
      );
      progress.end('done');
    } catch (e) {
      progress.end(e instanceof OfficePullCancelled ? 'cancelled' : 'failed');
      throw e;
    } finally {
      if (running === cancel) running = null;
    }
    const skipped = skippedRows(core.db, 3);
    if (skipped.count > before)
      core.log?.warn('office rows skipped by the pull (values Blotter would never write)', {
        count: skipped.count,
        first: skipped.rows.map((r) => `${r.table} ${r.key}: ${r.problem}`),
      });
    if (counts.incidents + counts.deletions > 0) {
      incidentsWritten();
      core.emit({ type: 'incidentsChanged' });
    }
    return counts;
  }

  let leader: { officeId: string; url: string; sync: ReturnType<typeof createOfficeLeader> } | null = null;
  /** Office mode's leader election, gate and sink for the sync service; null while standalone. */
  function syncLink(): (OfficeSync & { paused: Set<number> }) | null {
    const link = readOfficeLink(core.db);
    if (!link) return (leader = null);
    if (leader?.officeId !== link.office_id || leader.url !== link.url) {
      const address = parseOfficeUrl(link.url);
      leader = {
        officeId: link.office_id,
        url: link.url,
        sync: createOfficeLeader({
          pool: () => reaching(address, () => poolFor(address)),
          db: core.db,
          officeId: link.office_id,
          holder: HOLDER,
          pull: () => pull(),
          ...(core.log ? { log: core.log } : {}),
          ...leaderOptions,
        }),
      };
    }
    return leader.sync;
  }

  const areaStore = createAreaStore(core.db);
  let edits: { url: string; areas: AreaEdits } | null = null;
  /** The areas of the office this folder is joined to (areaEdits.ts), one per link; null while standalone. */
  function areaEdits(): AreaEdits | null {
    const link = readOfficeLink(core.db);
    if (!link) return (edits = null);
    if (edits?.url !== link.url) {
      const address = parseOfficeUrl(link.url);
      edits = {
        url: link.url,
        areas: officeAreaEdits(
          core.db,
          areaStore,
          () => reaching(address, () => poolFor(address)),
          () => pull(),
        ),
      };
    }
    return edits.areas;
  }

  return {
    status,
    pull,
    /** Stops the running pull (its call rejects OfficePullCancelled); false when none runs. */
    cancelPull(): boolean {
      if (!running || running.signal.aborted) return false;
      running.abort();
      return true;
    },
    syncLink,
    areaEdits,

    /** Office mode: incidents arrive only through the replica's pull, so a local sync is refused. */
    refuseLocalWrites(what: string): void {
      if (readOfficeLink(core.db))
        throw new OfficeReplicaError(
          `This data folder is a replica of an office database: its incidents come from the office, so it does not ${what} here (blotter office status; blotter office leave makes it standalone again).`,
        );
    },

    async join(url: string, password: string | null, replaceLocal: boolean, seed = false) {
      const address = parseOfficeUrl(url);
      const own = !readOfficeLink(core.db) && localCount('incidents') + localCount('areas') > 0;
      const schema = await reaching(address, async () => migrateOffice(await poolFor(address, password)));
      if (own && !replaceLocal) {
        const empty = await reaching(address, async () => officeIsEmpty(await poolFor(address)));
        if (!seed || !empty)
          throw new LocalArchiveNotEmptyError(
            `This data folder holds ${localCount('incidents')} incidents and ${localCount('areas')} areas of its own; ` +
              (empty
                ? `the office is empty: seed it with this archive (--seed; Settings: "Seed the office"), or replace them with the office's (--replace-local).`
                : `the office already holds an archive, so joining replaces them with the office's (--replace-local).`),
          );
        await reaching(address, async () => seedOffice(await poolFor(address), core.db));
      }
      const link = readOfficeLink(core.db);
      if (password !== null) await core.secrets.set(account(), password);
      else await core.secrets.delete(account());
      if (!link || link.office_id !== schema.officeId || link.url !== address.url)
        linkOffice(core.db, address.url, schema.officeId, Date.now());
      const pulled = await pull();
      core.emit({ type: 'incidentsChanged' });
      return { status: await status(), pulled };
    },

    async leave() {
      const left = unlinkOffice(core.db);
      await close();
      await core.secrets.delete(account()).catch(() => false);
      return { left, replicaIncidents: localCount('incidents') };
    },

    /**
     * Whether this desktop sends the scheduled reports: always when standalone; in office mode
     * only while it holds the office's report-mail lease (renewed at each look, taken when free).
     * An unreachable office throws: nobody can tell, so this desktop does not send.
     */
    async leadsReportMail(): Promise<boolean> {
      const link = readOfficeLink(core.db);
      if (!link) return true;
      const address = parseOfficeUrl(link.url);
      return reaching(address, async () => {
        const pool = await poolFor(address);
        const now = await currentLeader(pool, REPORT_MAIL_LEADER);
        if (now && now.holder === holder)
          return heartbeat(pool, { name: REPORT_MAIL_LEADER, holder, token: now.token }, REPORT_MAIL_TTL_MS);
        if (now) return false;
        return (await acquireLease(pool, REPORT_MAIL_LEADER, holder, REPORT_MAIL_TTL_MS)) !== null;
      });
    },

    close,
  };
}

export type OfficeService = ReturnType<typeof createOfficeService>;
