/**
 * What every run (live or v1) hears from its requester and limiter: rate waits and retries shown as
 * progress, and each failed attempt (a 5xx, a 429, a network fault) written to the request log and
 * the run's counts at once — a request the server may have counted is never lost from the ledger.
 * The watch is made before the run's requester, which is built with `events` and `runId` as its
 * listeners (syncService.ts); the runner attaches the run once it is prepared. Also the run's
 * summary from its row.
 */
import type { Db } from '../store/database';
import type { AreaRecord } from '../areas/areaStore';
import type { JobStore, RunRow } from './jobStore';
import { retryMessage, waitMessage, type ProgressReporter } from './progress';
import type { RateLimiter } from '../api/rateLimiter';
import type { RequesterEvents } from './requester';
import type { InTurn, RunSummary } from './runTypes';

type WatchDeps = { db: Db; jobs: JobStore; limiter: RateLimiter; now: () => number; inTurn: InTurn };

export type RunWatch = {
  /** The requester's listeners: silent until a run is attached. */
  readonly events: RequesterEvents;
  /** The run whose requests these are (the request log's run id), once attached. */
  runId(): number | null;
  /** Attaches a prepared run; the returned function stops showing and logging (the run id stays). */
  attach(deps: WatchDeps, runId: number, progress: ProgressReporter): () => void;
};

export function createRunWatch(): RunWatch {
  let runId: number | null = null;
  let heard: RequesterEvents = {};
  return {
    events: {
      onRetry: (e, retryAt) => heard.onRetry?.(e, retryAt),
      onFailedAttempt: (entry) => heard.onFailedAttempt?.(entry),
    },
    runId: () => runId,
    attach({ db, jobs, limiter, now, inTurn }, id, progress) {
      runId = id;
      const unwait = limiter.onWait((w) => {
        if (!w) return progress.update('running');
        if (w.reason === 'rate' && (w.untilMs === null || w.untilMs - now() < 1000)) return;
        progress.update('waiting-rate', {
          message: waitMessage(w.reason, w.untilMs, now(), limiter.rate),
          retryAt: w.untilMs ?? undefined,
        });
      });
      heard = {
        onRetry: (e, retryAt) =>
          progress.update(
            e.code === 'offline' ? 'offline' : e.code === 'rate_limited' ? 'waiting-rate' : 'retrying',
            {
              message: e.code === 'rate_limited' ? e.message : retryMessage(e, retryAt, now()),
              retryAt,
            },
          ),
        // In its write turn (after an import's merge, never blocking the engine thread); a row that
        // cannot be written then is lost from the log only — the rate ledger's own row stays.
        onFailedAttempt: (entry) => {
          inTurn(() =>
            db
              .transaction(() => {
                jobs.logRequest(id, entry);
                jobs.addCounts(id, { requests: 1, rateLimited: entry.status === 429 ? 1 : 0 });
              })
              .immediate(),
          ).catch(() => undefined);
        },
      };
      return () => {
        unwait();
        heard = {};
      };
    },
  };
}

/** The run's summary as its row now stands. */
export function summarizeRun(
  jobs: JobStore,
  area: Pick<AreaRecord, 'id'>,
  runId: number,
  resumed: boolean,
  state: RunSummary['state'],
  extra: Partial<RunSummary> = {},
): RunSummary {
  const r = jobs.run(runId) as RunRow;
  return {
    areaId: area.id,
    runId,
    kind: r.kind,
    state,
    resumed,
    new: r.new_count,
    updated: r.updated_count,
    removed: r.removed_count,
    lowerBound: r.lower_bound,
    incomplete: [],
    ...extra,
  };
}
