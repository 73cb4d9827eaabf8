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
import { withV1 } from '../api/v1Source';
import { surfaceViews } from './surfaceView';
import { createRunWatch, type RunWatch } from './runWatch';
import { createProfileBook, type ProfileMirror } from './serverProfile';
import { planHistory } from './surfaceHistory';
import type { PlanId } from '../../../src-shared/plans';
import type { FetchLike } from '../api/source';
import type { Logger } from '../log';
import type { Db } from '../store/database';
import { createAreaStore, type AreaRecord } from '../areas/areaStore';
import { CONCURRENCY, ON_DEMAND_MAX_WAIT_MS, ON_DEMAND_TIMEOUT_MS } from './constants';
import { fetchDetail, type DescriptionSink } from './details';
import { ON_DEMAND_BACKOFF, type BackoffPolicy } from './backoff';
import { createIncidentWriter } from './incidentWriter';
import { createJobStore } from './jobStore';
import { planRun, type Depth, type SyncLimits } from './planner';
import type { SyncProgress } from './progress';
import { limiterFor, type RateLimiter } from '../api/rateLimiter';
import { Requester, type RequestGate } from './requester';
import { runArea, runErrorOf, type CommitSink, type RunSummary } from './runner';
import { atOnce, type InTurn } from './runTypes';
import type { PageCommitted } from './runTypes';
import { createRefreshScheduler, type SchedulerOptions } from './scheduler';
import { createRateLedger, ledgerInTurns, type RateLedger } from './rateLedger';
import { PROCESS_HOLDER, takeSyncLock } from './syncLock';
import { createChangeThrottle, type IncidentsChangedEvent } from './changeThrottle';
import { schedulePrune } from './historyPrune';
import { fairLowerBound } from './fairBound';
import type { WriteTurns } from '../store/writeTurns';

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
  /**
   * Hears each page of current incidents inside its transaction, before it commits (runTypes.ts
   * PageCommitted): the engine's alerts, wired by services.ts, so a page and its alerts land together.
   */
  onPageCommitted?: PageCommitted;
  /** Descriptions on demand, where a person waits (constants.ts has the defaults). */
  onDemand?: { backoff?: BackoffPolicy; timeoutMs?: number; maxWaitMs?: number };
  /** Office mode's leader election, gate and sink (engine/office/leader.ts); null: a standalone folder. */
  office?: () => OfficeSync | null;
  /** The engine's write turns: a standalone run's commits wait for an import's merge (store/writeTurns.ts). */
  writeTurns?: WriteTurns;
};

/** This desktop leads an area's sync: the lease is held until `release` (or `lost` fires). */
export type OfficeLeading = {
  token: number;
  sink: CommitSink;
  gate: RequestGate;
  /** Keeps what the leader learned of the server in the office's copy of its profile. */
  keepProfile?: ProfileMirror;
  lost: AbortSignal;
  release(): Promise<void>;
};

export type OfficeSynced = {
  holder: string;
  runId: number;
  kind: RunSummary['kind'];
  new: number;
  updated: number;
  removed: number;
  lowerBound: number | null;
};

/**
 * Office mode as the sync sees it: exactly one desktop syncs an area (the lease); the others pull
 * and wait until that run is done, taking over when its leader is gone.
 */
export type OfficeSync = {
  /**
   * Takes the area's lease (its job state adopted from the office, the replica pulled), or says
   * who holds it, or that another desktop finished a sync of the area since `askedAt` (this
   * sync's request, by the desktops' clocks): then there is nothing to do but pull.
   */
  lead(
    areaId: number,
    apiKey: string,
    askedAt: number,
  ): Promise<{ leading: OfficeLeading } | { heldBy: string } | { synced: OfficeSynced }>;
  /** A follower's pause: a short wait (cut short by `signal`), then a pull. */
  wait(signal?: AbortSignal): Promise<void>;
  /** The replica's pull (the refresh scheduler's look starts with one). */
  pull(): Promise<void>;
  /** Descriptions fetched on demand go to the office's row, back by the pull (office/descriptionSink.ts). */
  descriptions: DescriptionSink;
};

export type StartOptions = { depth?: Depth; details?: boolean; signal?: AbortSignal; history?: boolean };

export type SyncService = ReturnType<typeof createSyncService>;

export function createSyncService(o: SyncServiceOptions) {
  const now = o.now ?? Date.now;
  const areas = createAreaStore(o.db);
  const jobs = createJobStore(o.db);
  const writer = createIncidentWriter(o.db);
  const turns = o.writeTurns;
  const inTurns = (ledger: RateLedger) => (turns ? ledgerInTurns(ledger, turns) : ledger);
  /** A run's writes outside its sink, in the engine's write turn: none waits in SQLite's busy handler. */
  const inTurn: InTurn = turns ? (write) => turns.take(write) : atOnce;
  /** Areas this process has taken the sync lock of (in a turn), until their run ends. */
  const claimed = new Set<number>();
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
    gate?: RequestGate,
    /** A run's watch: the requester's listeners and run id (runWatch.ts). */
    watch?: RunWatch,
  ): Promise<T> {
    const impatient = o.onDemand ?? {};
    const sourceOptions = {
      baseUrl: conn.baseUrl,
      key: conn.key,
      fetch: conn.fetch,
      onReachability: (reachable: boolean) => connectivity.report(reachable, conn.baseUrl),
      ...(onDemand ? { timeoutMs: impatient.timeoutMs ?? ON_DEMAND_TIMEOUT_MS } : {}),
    };
    // The live surface, plus v1's pages for a run on v1 (sync/surfaceSelect.ts decides which).
    const source = withV1(createLiveSource(sourceOptions), sourceOptions);
    const r = new Requester({
      source,
      limiter: limiter(conn),
      ledger: inTurns(createRateLedger(o.db, digestOf(conn.key), PROCESS_HOLDER, now)),
      ...(gate ? { gate } : {}),
      ...(watch ? { events: watch.events, runId: watch.runId } : {}),
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

  /** Areas whose run waits for its write turn (an import being saved): not started, but stoppable. */
  const waitingTurn = new Map<number, AbortController>();

  /** A run's state before it starts: waiting for its turn, or stopped meanwhile (nothing written). */
  function beforeStart(area: AreaRecord, state: 'planning' | 'paused', message: string): void {
    o.emit({
      type: 'syncProgress',
      areaId: area.id,
      runId: 0,
      kind: area.backfilledAt === null ? 'backfill' : 'refresh',
      state,
      planned: 0,
      done: 0,
      new: 0,
      updated: 0,
      removed: 0,
      etaSeconds: null,
      message,
    });
  }

  /**
   * Takes the area's sync lock in a write turn (during an import's merge: after its commit, waiting
   * on the event loop); throws AlreadySyncingError; null when this process already syncs the area.
   * While it waits the area is syncing (`isRunning`) and says so; `stop` aborted meanwhile ends it
   * before it writes anything ('stopped').
   */
  async function lockArea(area: AreaRecord, stop: AbortController): Promise<(() => void) | null | 'stopped'> {
    const waits = turns?.busy === true;
    if (waits) {
      waitingTurn.set(area.id, stop);
      beforeStart(area, 'planning', 'Waiting for the import to be saved');
    }
    try {
      const got = await inTurn(() => (stop.signal.aborted ? ('stopped' as const) : lockNow(area.id)));
      if (got === 'stopped') beforeStart(area, 'paused', 'Stopped before it started; nothing was written.');
      return got;
    } finally {
      if (waits) waitingTurn.delete(area.id);
    }
  }

  function lockNow(areaId: number): (() => void) | null {
    if (claimed.has(areaId)) return null;
    const release = takeSyncLock(o.db, areaId, now, inTurn);
    claimed.add(areaId);
    return () => {
      claimed.delete(areaId);
      release();
    };
  }

  function runOne(
    area: AreaRecord,
    conn: Connection,
    opts: StartOptions,
    stop: AbortController,
    release: () => void,
    askedAt = now(),
  ): Promise<RunSummary> {
    const signal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
    const office = o.office?.() ?? null;
    const run = (a: AreaRecord, s: AbortSignal, leading?: OfficeLeading) => {
      const watch = createRunWatch();
      return withRequester(
        conn,
        false,
        (requester) =>
          runArea(
            {
              db: o.db,
              requester,
              watch,
              // What is known of the server; a leader's learning goes to the office too.
              profile: createProfileBook(o.db, conn.baseUrl, now, leading?.keepProfile, inTurn),
              areas,
              jobs,
              writer,
              baseUrl: conn.baseUrl,
              limits: conn.limits,
              now,
              emit: o.emit,
              log: o.log,
              onCommit: (areaId) => changes.changed(areaId),
              onPageCommitted: o.onPageCommitted,
              inTurn,
              // A leader's descriptions (`details`) go to the office too, back by the pull.
              ...(leading && office
                ? { sink: leading.sink, descriptions: office.descriptions }
                : turns
                  ? { sink: { commit: (_runId, write) => turns.take(write) } }
                  : {}),
            },
            a,
            // A leader keeps one request in flight: a failover repeats at most one page.
            {
              depth: opts.depth,
              details: opts.details,
              signal: s,
              concurrency: leading ? 1 : o.concurrency,
              ...(opts.history ? { history: true } : {}),
            },
          ),
        leading?.gate,
        watch,
      );
    };
    const done = office ? officeRun(office, area, conn, signal, run, askedAt) : run(area, signal);
    return done.finally(() => {
      release();
      prune();
    });
  }

  /**
   * Office mode: lead the area's sync (lease, gate, sink) or follow it — pull and wait until the
   * leader's run is done, taking over (and resuming its job state) when the leader is gone.
   */
  async function officeRun(
    office: OfficeSync,
    area: AreaRecord,
    conn: Connection,
    signal: AbortSignal,
    run: (a: AreaRecord, s: AbortSignal, leading: OfficeLeading) => Promise<RunSummary>,
    askedAt: number,
  ): Promise<RunSummary> {
    const quiet = (extra: Partial<RunSummary>): RunSummary => ({
      areaId: area.id,
      runId: 0,
      kind: 'refresh',
      state: 'cancelled',
      resumed: false,
      new: 0,
      updated: 0,
      removed: 0,
      lowerBound: null,
      incomplete: [],
      ...extra,
    });
    let told = false;
    for (;;) {
      if (signal.aborted) return quiet({});
      let got: Awaited<ReturnType<OfficeSync['lead']>>;
      try {
        got = await office.lead(area.id, conn.key, askedAt);
      } catch (error) {
        const e = runErrorOf(error);
        if (!e) throw error;
        o.log.warn('office sync not started', { area: area.id, why: e.message });
        return quiet({ state: 'failed', error: e });
      }
      if ('synced' in got) {
        const { holder, ...r } = got.synced;
        changes.changed(area.id);
        return quiet({ ...r, state: 'done', ledBy: holder });
      }
      if ('heldBy' in got) {
        if (!told) {
          o.log.info('another desktop leads this area; pulling its pages', {
            area: area.id,
            leader: got.heldBy,
          });
          told = true;
        }
        await office.wait(signal);
        changes.changed(area.id);
        continue;
      }
      const leading = got.leading;
      try {
        const fresh = areas.get(area.id) ?? area;
        const summary = await run(fresh, AbortSignal.any([signal, leading.lost]), leading);
        const lost =
          summary.state !== 'done' &&
          !signal.aborted &&
          (leading.lost.aborted || summary.error?.code === 'conflict');
        if (lost) {
          // Paused or cut off past the lease: nothing more was committed; another desktop leads
          // now, so this sync follows it (pulls) until the area is done.
          o.log.warn('lost the lease on the area; following its new leader', { area: area.id });
          told = false;
          continue;
        }
        return summary;
      } catch (error) {
        const e = runErrorOf(error);
        if (!e) throw error;
        if (e.code === 'conflict' && !signal.aborted) {
          o.log.warn('lost the lease on the area; following its new leader', { area: area.id });
          continue;
        }
        return quiet({ state: 'failed', error: e });
      } finally {
        await leading.release();
      }
    }
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
    /** Whether the 36-month history backfill can run, and its request count (surfaceHistory.ts). */
    planHistory: (areaIds: number[] | undefined, baseUrl: string, plan: PlanId, limits: SyncLimits) =>
      planHistory({ db: o.db, jobs, now }, chosen(areaIds), baseUrl, plan, limits),
    /** The v1 surface's status, the run's surface and the area's score, for the area's view (surfaceView.ts). */
    surfaceViews: (areaId: number, runId: number | null) => surfaceViews(o.db, jobs, areaId, runId),
    /** Whether the area's sync runs, or waits for its write turn to start. */
    isRunning: (areaId: number): boolean => running.has(areaId) || waitingTurn.has(areaId),
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
      const askedAt = now(); // office mode: an area another desktop syncs meanwhile is not synced again
      for (const area of list) {
        if (opts.signal?.aborted) break;
        const stop = new AbortController();
        const stopWaiting = () => stop.abort(); // the caller's stop reaches a run waiting for its turn
        opts.signal?.addEventListener('abort', stopWaiting, { once: true });
        const release = await lockArea(area, stop).finally(() =>
          opts.signal?.removeEventListener('abort', stopWaiting),
        ); // throws AlreadySyncingError
        if (release === 'stopped') break;
        if (!release) continue; // this process syncs it already
        const done = runOne(area, conn, opts, stop, release, askedAt);
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
      const list = chosen(areaIds).filter((a) => !running.has(a.id) && !waitingTurn.has(a.id));
      if (list.length === 0) return [];
      const conn = await o.connect();
      const started: number[] = [];
      let refused: unknown = null;
      // Every area asks for its turn now: while an import is saved, each shows as waiting and stoppable.
      const asked = list.map((a) => {
        const stop = new AbortController();
        const lock = lockArea(a, stop);
        lock.catch(() => undefined); // answered in the loop below
        return { a, stop, lock };
      });
      for (const { a, stop, lock } of asked) {
        let run: Promise<RunSummary>;
        try {
          const release = await lock;
          if (!release || release === 'stopped') continue; // started meanwhile, or stopped
          run = runOne(a, conn, opts, stop, release);
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
      const ids = [...running.keys(), ...waitingTurn.keys()].filter((id) => !areaIds || areaIds.includes(id));
      for (const id of ids) (running.get(id)?.stop ?? waitingTurn.get(id))?.abort();
      return ids;
    },

    /** Stops and waits until the runs have written their last state (before an area is deleted). */
    async stopAndWait(areaIds: number[]): Promise<void> {
      for (const id of areaIds) waitingTurn.get(id)?.abort(); // ends before it writes
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
          // Standalone: the folder's own row; office mode: the office's, back by the pull.
          fetchDetail(
            { db: o.db, jobs, writer, requester, now, inTurn, descriptions: o.office?.()?.descriptions },
            cdid,
            null,
          ),
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
    beforeCheck: async () => {
      await o.office?.()?.pull();
    },
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
