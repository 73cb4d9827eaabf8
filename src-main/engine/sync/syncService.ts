/**
 * The sync as a service for the hosts (handlers/sync.ts) and the CLI: plan, start, stop, status,
 * on-demand details, and the refresh scheduler. One rate limiter per key for the whole process;
 * runs of different areas share it. Connection details (base URL, key, plan limits, fetch) are
 * asked for at each start, so a changed key or plan takes effect on the next sync.
 */
import { createHash } from 'node:crypto';
import type { SyncPlan } from '../../../src-shared/sync';
import { ApiError } from '../api/apiError';
import { createConnectivity, offlineMessage, type ConnectivityEvent } from '../api/connectivity';
import { createLiveSource } from '../api/liveSource';
import type { FetchLike } from '../api/source';
import type { Logger } from '../log';
import type { Db } from '../store/database';
import { createAreaStore, type AreaRecord } from './areaStore';
import { CONCURRENCY, ON_DEMAND_MAX_WAIT_MS, ON_DEMAND_TIMEOUT_MS } from './constants';
import { fetchDetail } from './details';
import { ON_DEMAND_BACKOFF, type BackoffPolicy } from './backoff';
import { createIncidentWriter } from './incidentWriter';
import { createJobStore } from './jobStore';
import { planRun, type Depth, type SyncLimits } from './planner';
import type { SyncProgress } from './progress';
import { limiterFor, type RateLimiter } from './rateLimiter';
import { Requester } from './requester';
import { runArea, type RunSummary } from './runner';
import { createRefreshScheduler, type SchedulerOptions } from './scheduler';
import { createRateLedger } from './rateLedger';
import { PROCESS_HOLDER, takeSyncLock } from './syncLock';
import { createChangeThrottle, type IncidentsChangedEvent } from './changeThrottle';
import { schedulePrune } from './historyPrune';
import { fairLowerBound } from './fairBound';

export type { SchedulerOptions } from './scheduler';

export type Connection = { baseUrl: string; key: string; limits: SyncLimits; fetch: FetchLike };

export type SyncServiceOptions = {
  db: Db;
  log: Logger;
  emit: (p: SyncProgress) => void;
  /** Resolves the connection for a sync (throws an EngineError-like error when not configured). */
  connect: () => Promise<Connection>;
  now?: () => number;
  concurrency?: number;
  /** Retry policy for 5xx and network faults (tests shorten it). */
  backoff?: BackoffPolicy;
  /** Hears when the API becomes unreachable or reachable again (api/connectivity.ts). */
  onConnectivity?: (event: ConnectivityEvent) => void;
  /**
   * Hears when a commit added, changed or removed incidents (at most every 250 ms, changeThrottle.ts):
   * the engine's `incidentsChanged` event, so views re-query without guessing from progress counts.
   */
  onIncidentsChanged?: (event: IncidentsChangedEvent) => void;
  /** Descriptions on demand, where a person waits (constants.ts has the defaults). */
  onDemand?: { backoff?: BackoffPolicy; timeoutMs?: number; maxWaitMs?: number };
};

export type StartOptions = { depth?: Depth; details?: boolean; signal?: AbortSignal };

export type SyncService = ReturnType<typeof createSyncService>;

export function createSyncService(o: SyncServiceOptions) {
  const now = o.now ?? Date.now;
  const areas = createAreaStore(o.db);
  const jobs = createJobStore(o.db);
  const writer = createIncidentWriter(o.db);
  const running = new Map<number, { stop: AbortController; done: Promise<RunSummary> }>();
  const seeded = new Set<string>();
  const requesters = new Set<Requester>();
  const retired = { requests: 0, rateLimited: 0 };
  const connectivity = createConnectivity((event) => o.onConnectivity?.(event));
  const changes = createChangeThrottle((event) => o.onIncidentsChanged?.(event));

  const digestOf = (key: string): string => createHash('sha256').update(key).digest('hex').slice(0, 16);

  function limiter(conn: Connection): RateLimiter {
    const digest = digestOf(conn.key);
    const l = limiterFor(digest, conn.limits.ratePerMinute);
    if (!seeded.has(digest)) {
      seeded.add(digest);
      l.seed(recentRequestEnds(o.db, now(), digest));
    }
    return l;
  }

  /** A requester for one run or one description; its counts join `retired` when the work ends. */
  async function withRequester<T>(
    conn: Connection,
    onDemand: boolean,
    work: (r: Requester) => Promise<T>,
  ): Promise<T> {
    const impatient = o.onDemand ?? {};
    const source = createLiveSource({
      baseUrl: conn.baseUrl,
      key: conn.key,
      fetch: conn.fetch,
      onReachability: (reachable) => connectivity.report(reachable, conn.baseUrl),
      ...(onDemand ? { timeoutMs: impatient.timeoutMs ?? ON_DEMAND_TIMEOUT_MS } : {}),
    });
    const r = new Requester({
      source,
      limiter: limiter(conn),
      ledger: createRateLedger(o.db, digestOf(conn.key), PROCESS_HOLDER, now),
      ...(onDemand
        ? {
            backoff: impatient.backoff ?? ON_DEMAND_BACKOFF,
            maxWaitMs: impatient.maxWaitMs ?? ON_DEMAND_MAX_WAIT_MS,
            retryTimeouts: false,
          }
        : { backoff: o.backoff }),
    });
    requesters.add(r);
    try {
      return await work(r);
    } finally {
      requesters.delete(r);
      retired.requests += r.requests;
      retired.rateLimited += r.rateLimited;
    }
  }

  function runOne(
    area: AreaRecord,
    conn: Connection,
    opts: StartOptions,
    stop: AbortController,
  ): Promise<RunSummary> {
    const signal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
    const release = takeSyncLock(o.db, area.id, now); // throws AlreadySyncingError first
    const done = withRequester(conn, false, (requester) =>
      runArea(
        {
          db: o.db,
          requester,
          areas,
          jobs,
          writer,
          baseUrl: conn.baseUrl,
          limits: conn.limits,
          now,
          emit: o.emit,
          log: o.log,
          onCommit: (areaId) => changes.changed(areaId),
        },
        area,
        { depth: opts.depth, details: opts.details, signal, concurrency: o.concurrency },
      ),
    );
    return done.finally(() => {
      release();
      prune();
    });
  }

  /** Old request-log rows, runs and jobs go after each sync, in small batches off the call path. */
  let pruning: (() => void) | null = null;
  function prune(): void {
    if (pruning) return;
    pruning = schedulePrune(o.db, now, o.log, () => (pruning = null));
  }

  function chosen(areaIds?: number[]): AreaRecord[] {
    const all = areas.list();
    return areaIds ? all.filter((a) => areaIds.includes(a.id)) : all.filter((a) => !a.paused);
  }

  const service = {
    /** A request made outside a sync (the connection test) came back (true) or found no one (false). */
    reportReachability(reachable: boolean, baseUrl: string): void {
      connectivity.report(reachable, baseUrl);
    },
    /** What is known of the API's reachability now (null until any request was made). */
    connectivityNow: () => connectivity.now(),

    /** ceil(N / 500) over the union of these runs' areas (an incident in two areas counts once). */
    fairLowerBound(runs: readonly { runId: number; areaId: number }[]): number {
      return fairLowerBound(
        o.db,
        runs.flatMap((r) => {
          const row = jobs.run(r.runId);
          const area = areas.get(r.areaId);
          return row && area ? [{ run: row, shape: area.shape }] : [];
        }),
      );
    },

    areas,
    jobs,
    isRunning: (areaId: number): boolean => running.has(areaId),
    /** Requests sent (every attempt) and 429s received by this service so far. */
    stats: () => ({
      requests: [...requesters].reduce((n, r) => n + r.requests, retired.requests),
      rateLimited: [...requesters].reduce((n, r) => n + r.rateLimited, retired.rateLimited),
    }),

    /** Estimated requests and minutes at the plan's rate, before anything is sent. */
    plan(areaIds: number[] | undefined, limits: SyncLimits, depth: Depth = 'auto'): SyncPlan {
      const list = chosen(areaIds).map((a) => {
        const latest = jobs.latestRun(a.id);
        const resuming = latest && latest.state !== 'done' ? jobs.pendingEstimate(latest.id) : null;
        const p = planRun(o.db, a, now(), limits, depth);
        const requests = resuming ?? p.estimates.reduce((x, y) => x + y, 0);
        return {
          areaId: a.id,
          kind: p.kind,
          tiles: p.roots.length,
          requests,
          minutes: requests / limits.ratePerMinute,
          basis: p.basis,
        };
      });
      const requests = list.reduce((s, a) => s + a.requests, 0);
      return {
        areas: list,
        requests,
        minutes: requests / limits.ratePerMinute,
        ratePerMinute: limits.ratePerMinute,
      };
    },

    /** Syncs the areas one after another and resolves with each run's summary (the CLI waits on this). */
    async syncAreas(list: AreaRecord[], conn: Connection, opts: StartOptions = {}): Promise<RunSummary[]> {
      const out: RunSummary[] = [];
      for (const area of list) {
        if (opts.signal?.aborted) break;
        const stop = new AbortController();
        const done = runOne(area, conn, opts, stop);
        running.set(area.id, { stop, done });
        try {
          const summary = await done;
          out.push(summary);
          if (summary.error?.fatal) break; // 401/403 will not get better for the next area
        } finally {
          running.delete(area.id);
        }
      }
      return out;
    },

    /** Starts syncing in the background; returns the area ids started (already running ones are skipped). */
    async start(areaIds: number[] | undefined, opts: StartOptions = {}): Promise<number[]> {
      const list = chosen(areaIds).filter((a) => !running.has(a.id));
      if (list.length === 0) return [];
      const conn = await o.connect();
      const started: number[] = [];
      let refused: unknown = null;
      for (const a of list) {
        const stop = new AbortController();
        let run: Promise<RunSummary>;
        try {
          run = runOne(a, conn, opts, stop);
        } catch (error) {
          // Another Blotter syncs this area: the others still start; said when none could.
          refused ??= error;
          o.log.info('area not started', { area: a.id, why: (error as Error).message });
          continue;
        }
        started.push(a.id);
        const done = run
          .catch((error: unknown) => {
            o.log.error('sync crashed', { area: a.id, error });
            throw error;
          })
          .finally(() => running.delete(a.id));
        running.set(a.id, { stop, done });
        done.catch(() => undefined);
      }
      if (started.length === 0 && refused) throw refused;
      return started;
    },

    stop(areaIds?: number[]): number[] {
      const ids = [...running.keys()].filter((id) => !areaIds || areaIds.includes(id));
      for (const id of ids) running.get(id)?.stop.abort();
      return ids;
    },

    /** Stops and waits until the runs have written their last state (before an area is deleted). */
    async stopAndWait(areaIds: number[]): Promise<void> {
      const pending = areaIds.map((id) => running.get(id)).filter((r) => r !== undefined);
      for (const r of pending) r.stop.abort();
      await Promise.allSettled(pending.map((r) => r.done));
    },

    /**
     * A description now, first in the limiter's line, for a person who is waiting: one quick retry
     * for a network fault, then `offline` in plain words; a short wait for Retry-After at most.
     */
    async detail(
      cdid: number,
      conn?: Connection,
    ): Promise<{ description: string | null; fetchedAt: number }> {
      const c = conn ?? (await o.connect());
      try {
        const description = await withRequester(c, true, (requester) =>
          fetchDetail({ db: o.db, jobs, writer, requester, now }, cdid, null),
        );
        return { description, fetchedAt: now() };
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'offline') throw error;
        o.log.info('description not fetched: the service cannot be reached', { cdid, why: error.message });
        throw new ApiError(
          'offline',
          `${offlineMessage(c.baseUrl)}. The description comes from the service: open the incident again once it can be reached.`,
          error.details,
        );
      }
    },

    /** Background refresh of due areas (scheduler.ts); close() stops it. */
    startScheduler: (options: SchedulerOptions = {}): void => scheduler.start(options),
    dueAreas: (): AreaRecord[] => scheduler.due(),
    scheduling: (): boolean => scheduler.active(),

    async close(): Promise<void> {
      scheduler.stop();
      pruning?.();
      const pending = [...running.values()];
      for (const r of pending) r.stop.abort();
      await Promise.allSettled(pending.map((r) => r.done));
      changes.close();
    },
  };
  const scheduler = createRefreshScheduler({
    areas,
    isRunning: service.isRunning,
    start: (ids) => service.start(ids),
    now,
    log: o.log,
  });
  return service;
}

/**
 * When the previous process was killed mid-sync, its last requests still count at the server for a
 * minute: their end times from the request log, plus one slot per request that may have been in
 * flight unlogged at the kill.
 */
function recentRequestEnds(db: Db, now: number, keyDigest: string): number[] {
  // This key's requests only (rows older than the shared ledger have no digest: counted, to be safe).
  const rows = db
    .prepare<[number, string], { end: number }>(
      'SELECT at + duration_ms AS end FROM request_log WHERE at >= ? AND (key_digest IS NULL OR key_digest = ?) ORDER BY at',
    )
    .all(now - 2 * 60_000, keyDigest);
  const ends = rows.map((r) => r.end).filter((e) => e >= now - 61_000);
  const interrupted =
    db.prepare<[], { n: number }>("SELECT count(*) AS n FROM sync_runs WHERE state = 'running'").get()?.n ??
    0;
  if (interrupted > 0 && rows.length > 0) for (let i = 0; i < CONCURRENCY; i++) ends.push(now);
  return ends;
}
