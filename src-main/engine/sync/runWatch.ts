/**
 * What every run (live or v1) does around its requests: shows rate waits and retries as progress,
 * and writes each failed attempt (a 5xx, a 429, a network fault) to the request log and the run's
 * counts at once — a request the server may have counted is never lost from the ledger — and builds
 * the run's summary from its row. One place for runner.ts and surfaceRun.ts.
 */
import type { Db } from '../store/database';
import type { AreaRecord } from './areaStore';
import type { JobStore, RunRow } from './jobStore';
import { retryMessage, waitMessage, type ProgressReporter } from './progress';
import type { Requester } from './requester';
import type { RunSummary } from './runner';

type WatchDeps = { db: Db; jobs: JobStore; requester: Requester; now: () => number };

/** Attaches the run to the requester and its limiter; the returned function detaches it. */
export function watchRun(deps: WatchDeps, runId: number, progress: ProgressReporter): () => void {
  const { db, jobs, requester, now } = deps;
  const unwait = requester.limiter.onWait((w) => {
    if (!w) return progress.update('running');
    if (w.reason === 'rate' && (w.untilMs === null || w.untilMs - now() < 1000)) return;
    progress.update('waiting-rate', {
      message: waitMessage(w.reason, w.untilMs, now(), requester.limiter.rate),
      retryAt: w.untilMs ?? undefined,
    });
  });
  requester.runId = runId;
  requester.events = {
    onRetry: (e, retryAt) =>
      progress.update(
        e.code === 'offline' ? 'offline' : e.code === 'rate_limited' ? 'waiting-rate' : 'retrying',
        {
          message: e.code === 'rate_limited' ? e.message : retryMessage(e, retryAt, now()),
          retryAt,
        },
      ),
    onFailedAttempt: (entry) =>
      db
        .transaction(() => {
          jobs.logRequest(runId, entry);
          jobs.addCounts(runId, { requests: 1, rateLimited: entry.status === 429 ? 1 : 0 });
        })
        .immediate(),
  };
  return () => {
    unwait();
    requester.events = {};
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
