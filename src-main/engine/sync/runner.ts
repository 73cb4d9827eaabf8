/**
 * Runs one area's sync to the end: plan (or resume) the run, work through its persisted jobs with a
 * few requests in flight, write each response in one transaction (applyPage), then finalize
 * (removals, lower bound) and optionally fetch descriptions. A fatal answer (401, 403, a 400, or
 * failures that outlast the retries) stops the run; it stays resumable with its jobs as they were.
 */
import type { ErrorCode } from '../../../src-shared/contract';
import { ApiError } from '../api/apiError';
import type { SearchQuery } from '../api/source';
import type { Logger } from '../log';
import type { Db } from '../store/database';
import { localFailureOf } from '../store/localFailure';
import { applyPage } from './applyPage';
import type { AreaRecord, AreaStore } from './areaStore';
import { CONCURRENCY, MAX_RECORDS } from './constants';
import { fetchMissingDetails, type DescriptionSink } from './details';
import { finalizeRun } from './finalize';
import type { IncidentWriter } from './incidentWriter';
import { tileOfJob, typesOfJob, type JobRow, type JobStore, type RunRow } from './jobStore';
import type { Depth, SyncLimits } from './planner';
import { knownTypes, prepareRun } from './runSetup';
import { createProgressReporter, type SyncProgress } from './progress';
import { summarizeRun, watchRun } from './runWatch';
import type { Requester } from './requester';
import { readQuirk, sendableSince } from './windowStart';
import { runAreaOnV1, type V1RunOptions } from './surfaceRun';
import { defersProbe, MAX_LIVE_LEFT, pickSurface, probeSurface } from './surfaceSelect';
import { surfaceOf } from './surfaceStore';
import { createRadiusGuard } from './radiusGuard';
import { sentRadius } from './radiusEvidence';
import { readRadius } from './radiusTrust';
import { provePageComplete } from './pageCap';

export type RunnerDeps = {
  db: Db;
  requester: Requester;
  areas: AreaStore;
  jobs: JobStore;
  writer: IncidentWriter;
  baseUrl: string;
  limits: SyncLimits;
  now: () => number;
  emit: (p: SyncProgress) => void;
  log: Logger;
  /** After a commit that added, changed or removed incidents of the area (the engine's incidentsChanged). */
  onCommit?: (areaId: number) => void;
  /** Where the run's commits go; absent: this folder's file, as they are written. */
  sink?: CommitSink;
  /** Where `details` descriptions go (details.ts); absent: this folder's file. */
  descriptions?: DescriptionSink;
};

/**
 * Where a run's commits (a page, the settling of a job, the run's end) go. Standalone: run at once
 * against this folder's file. Office mode (engine/office/leader.ts): to PostgreSQL in one fenced
 * transaction, then back into this folder through the replica's pull.
 */
export type CommitSink = { commit<T>(runId: number, write: () => T): Promise<T> };

export type RunOptions = {
  depth?: Depth;
  details?: boolean;
  signal?: AbortSignal;
  concurrency?: number;
  /** The opt-in 36-month history backfill on v1 (surfaceRun.ts) instead of a sync. */
  history?: boolean;
};

/** Why a run stopped: the service's answer (ApiError), a local failure, or a fault of Blotter's own. */
export type RunError = { code: ErrorCode; message: string; fatal: boolean };

export type RunSummary = {
  areaId: number;
  runId: number;
  kind: RunRow['kind'];
  state: 'done' | 'failed' | 'cancelled';
  resumed: boolean;
  new: number;
  updated: number;
  removed: number;
  lowerBound: number | null;
  /** ceil(N / 500), N = the area's incidents that occurred after the run's since (fairBound.ts). */
  fairLowerBound?: number | null;
  /** Spots that could not be proven complete, in plain words. */
  incomplete: string[];
  error?: RunError;
  /** Office mode: the desktop that led this run when it was not this one. */
  ledBy?: string;
};

export async function runArea(
  deps: RunnerDeps,
  area: AreaRecord,
  opts: RunOptions = {},
): Promise<RunSummary> {
  const { db, jobs, requester, now, log } = deps;
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const signal = stop.signal;
  const concurrency = opts.concurrency ?? CONCURRENCY;

  // The v1 surface when this base URL's is verified (or the run in progress started there): surface*.ts.
  // A first backfill's due probe waits for its first page: a small backfill does not spend it.
  const defer = defersProbe(deps, area, opts);
  const surface = await pickSurface(deps, area, signal, { ...(opts as V1RunOptions), deferProbe: defer });
  if (surface !== 'live') {
    opts.signal?.removeEventListener('abort', onAbort);
    return runAreaOnV1(deps, area, opts, surface);
  }
  const commit = <T>(runId: number, write: () => T): Promise<T> =>
    deps.sink ? deps.sink.commit(runId, write) : Promise.resolve(write());

  // Known from earlier versions' learning: whether a since older than the window serves the window.
  const quirk = readQuirk(db, deps.baseUrl);
  const { run, resumed, deep } = prepareRun(deps, area, opts.depth ?? 'auto', {
    maxRadius: readRadius(db, deps.baseUrl).max,
    trustedRadius: readRadius(db, deps.baseUrl).trusted,
  });
  let latency = 200;
  const progress = createProgressReporter(
    jobs,
    run.id,
    area.id,
    requester.limiter,
    deps.emit,
    () => latency,
    concurrency,
  );
  progress.update('planning', { message: resumed ? 'Resuming the interrupted sync.' : undefined });
  log.info(resumed ? 'resuming sync' : 'starting sync', {
    area: area.id,
    run: run.id,
    kind: run.kind,
    since: run.since_day,
  });

  const unwatch = watchRun(deps, run.id, progress);
  let failure: RunError | null = null;
  let probed = false;
  let toV1 = false;
  const claimed = new Set<number>();
  let busy = 0;
  let wake: (() => void) | null = null;
  const notify = (): void => {
    wake?.();
    wake = null;
  };
  const ctx = {
    db,
    jobs,
    writer: deps.writer,
    areaId: area.id,
    shape: area.shape,
    runId: run.id,
    now: now(),
    knownTypes: once(() => knownTypes(db)),
    windowDays: deps.limits.windowDays,
  };
  // Circles wider than the server is known to search in full are checked first (radiusGuard.ts).
  const guard = createRadiusGuard({
    db,
    jobs,
    requester,
    baseUrl: deps.baseUrl,
    shape: area.shape,
    runId: run.id,
    now,
    log,
    commit,
  });

  const pageCapDeps = { db, baseUrl: deps.baseUrl, requester, discard: guard.discard };

  async function work(job: JobRow): Promise<void> {
    let current: JobRow | undefined = job;
    while (current && current.state === 'pending' && !signal.aborted) {
      const sent = sendableSince(current.since, now(), deps.limits.windowDays, quirk);
      const types = typesOfJob(current);
      const tile = tileOfJob(current);
      const query: SearchQuery = {
        lat: tile.lat,
        lon: tile.lon,
        // Degree space until the server is seen to measure great-circle distance (radiusEvidence.ts).
        radius: sentRadius(tile, area.shape, guard.knowledge().reading),
        since: sent,
        maxRecords: MAX_RECORDS,
        sortOrder: current.mode === 'asc' ? 'ASC' : 'DESC',
        ...(types ? { types: guard.typesFor(current) } : {}),
      };
      let result;
      try {
        result = await guard.search(current, query, signal);
      } catch (error) {
        if (error instanceof ApiError && error.code === 'bad_input' && types) {
          // The server knows no such type: nothing of it can exist. Settle the job, say so in the log.
          const settled = current;
          await commit(run.id, () =>
            jobs.updateJob(
              settled.id,
              {
                since: settled.since,
                mode: settled.mode,
                ascLast: null,
                state: 'done',
                rows: 0,
                estimate: 0,
                error: error.message,
              },
              now(),
            ),
          );
          log.warn('type refused by the server; settled as empty', { types, message: error.message });
          return;
        }
        throw error;
      }
      if (result === null) {
        current = jobs.job(current.id); // split to circles the server answers correctly
        continue;
      }
      // A short page is all there is only if the server does not cap its answers (pageCap.ts).
      await provePageComplete(pageCapDeps, query, result, signal);
      latency = latency * 0.8 + result.meta.durationMs * 0.2;
      const page = current;
      const applied = await commit(run.id, () => applyPage({ ...ctx, now: now() }, page, sent, result));
      if (applied.counts.new + applied.counts.updated > 0) deps.onCommit?.(area.id);
      if (defer && !probed) {
        probed = true;
        // More than v1's own cost left: probe now, and move to v1 when it is verified.
        if (jobs.pendingEstimate(run.id) > MAX_LIVE_LEFT) {
          if (surfaceOf(await probeSurface(deps, area, signal)) === 'v1') {
            toV1 = true;
            stop.abort();
            return;
          }
        }
      }
      progress.update('running');
      current = jobs.job(current.id);
    }
  }

  async function worker(): Promise<void> {
    for (;;) {
      if (failure || signal.aborted) return;
      const job = jobs.jobs(run.id, 'pending').find((j) => !claimed.has(j.id));
      if (!job) {
        if (busy === 0) return;
        await new Promise<void>((r) => (wake = chain(wake, r)));
        continue;
      }
      claimed.add(job.id);
      busy++;
      try {
        await work(job);
      } catch (error) {
        // A local failure (disk full, file locked or damaged) is named as local; anything else that
        // is not the service's answer is Blotter's own fault — never blamed on the service.
        failure ??=
          error instanceof ApiError
            ? error
            : (runErrorOf(error) ?? localFailureOf(error, db.name) ?? ownFault());
        if (!(error instanceof ApiError)) log.error('sync step failed', { error });
        stop.abort();
      } finally {
        busy--;
        claimed.delete(job.id);
        notify();
      }
    }
  }

  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    unwatch();
    opts.signal?.removeEventListener('abort', onAbort);
  }

  const summary = (state: RunSummary['state'], extra: Partial<RunSummary> = {}): RunSummary =>
    summarizeRun(jobs, area, run.id, resumed, state, extra);

  if (toV1 && !opts.signal?.aborted) {
    // Its first page showed a backfill v1 can make cheaper, and v1 answered the probe: the rest is
    // asked there (the page's incidents stay; v1 describes the same ones).
    jobs.finishRun(run.id, 'cancelled', now(), 'The v1 surface answered; the sync continues there.');
    log.info('moving the first backfill to the v1 surface', { area: area.id, run: run.id });
    return runAreaOnV1(deps, area, opts, 'v1');
  }
  if (failure && (failure as RunError).code !== 'cancelled') {
    const error = failure as RunError;
    jobs.setRunState(run.id, 'failed', error.message);
    progress.update('failed', { error, message: error.message });
    log.warn('sync failed', { area: area.id, run: run.id, code: error.code, message: error.message });
    return summary('failed', { error });
  }
  if (signal.aborted) {
    jobs.setRunState(run.id, 'cancelled', 'Stopped.');
    progress.update('paused', { message: 'Stopped; the next sync resumes where this one left off.' });
    return summary('cancelled');
  }
  const fin = await commit(run.id, () =>
    finalizeRun(db, jobs, deps.areas, jobs.run(run.id) as RunRow, area, now(), deps.limits.windowDays, deep),
  );
  if (fin.removed > 0) deps.onCommit?.(area.id);
  if (opts.details) await fetchMissingDetails(deps, area, run.id, opts.signal);
  requester.runId = null;
  const incomplete = fin.failedJobs.map((j) => j.error ?? 'incomplete');
  progress.update('done', incomplete.length > 0 ? { message: incomplete[0] } : {});
  return summary('done', { incomplete, fairLowerBound: fin.fairLowerBound });
}

/** An error that names its own RunError (office mode: the lease was lost, PostgreSQL is unreachable). */
export function runErrorOf(error: unknown): RunError | null {
  const r = (error as { runError?: RunError } | null)?.runError;
  return r && typeof r.code === 'string' ? r : null;
}

function ownFault(): RunError {
  return {
    code: 'internal',
    message:
      'The sync stopped on a problem inside Blotter; the details are in the log. Syncing again resumes where it stopped.',
    fatal: true,
  };
}

function chain(prev: (() => void) | null, next: () => void): () => void {
  return () => {
    prev?.();
    next();
  };
}

/** `read`, run the first time the result is asked for and kept. */
function once<T>(read: () => T): () => T {
  let value: { v: T } | null = null;
  return () => (value ??= { v: read() }).v;
}
