/**
 * Runs one area's sync to the end, on whichever surface it asks (surfaceSelect.ts decides; the
 * strategy — liveStrategy.ts, cursorStrategy.ts — asks it): plan (or resume) the run, work through
 * its persisted jobs with a few requests in flight, every write committed through the run's sink
 * (office mode: PostgreSQL), then finalize (removals, lower bound), optionally fetch descriptions,
 * and on v1 the area's score. The runner owns what every run does alike: abort, progress, the
 * request-log watch, the commits, finalize, details, score, the summary and what a failure is
 * called. A fatal answer (401, 403, a 400, or failures that outlast the retries) stops the run; it
 * stays resumable with its jobs as they were.
 */
import { ApiError } from '../api/apiError';
import type { AreaRecord } from '../areas/areaStore';
import { cursorStrategy } from './cursorStrategy';
import { fetchMissingDetails } from './details';
import { finalizeRun } from './finalize';
import type { RunRow } from './jobStore';
import { workThrough } from './jobPool';
import { liveStrategy } from './liveStrategy';
import { createProgressReporter } from './progress';
import {
  atOnce,
  type Commit,
  type RunnerDeps,
  type RunOptions,
  type RunSummary,
  type SurfaceStrategy,
} from './runTypes';
import { summarizeRun } from './runWatch';
import { refreshAreaScore } from './surfaceScore';
import { chooseSurface, defersProbe, probeSurface, resumableSurface } from './surfaceSelect';

export type { CommitSink, RunError, RunnerDeps, RunOptions, RunSummary } from './runTypes';
export { runErrorOf } from './runTypes';

export async function runArea(
  deps: RunnerDeps,
  area: AreaRecord,
  opts: RunOptions = {},
): Promise<RunSummary> {
  const ended = await drive(deps, area, opts, await strategyFor(deps, area, opts));
  if (ended !== 'hand-off') return ended;
  // Its first page showed a backfill v1 can make cheaper, and v1 answered the probe: the rest is
  // asked there (the page's incidents stay; v1 describes the same ones).
  return (await drive(deps, area, opts, cursorStrategy(deps, area, opts, 'v1'))) as RunSummary;
}

/** The surface the run asks, carried out: a run in progress that cannot finish is abandoned, a due probe made. */
async function strategyFor(deps: RunnerDeps, area: AreaRecord, opts: RunOptions): Promise<SurfaceStrategy> {
  const defer = defersProbe(deps, area, opts);
  const choice = chooseSurface({
    history: opts.history === true,
    resuming: resumableSurface(deps, area.id),
    profile: deps.profile.get(),
    now: deps.now(),
    deferProbe: defer,
  });
  const latest = deps.jobs.latestRun(area.id);
  const abandon = choice.abandon;
  if (abandon && latest)
    await (deps.inTurn ?? atOnce)(() => deps.jobs.abandonRun(latest.id, abandon, deps.now()));
  const surface =
    choice.kind === 'use'
      ? choice.surface
      : await probeSurface(deps, area, opts.signal ?? new AbortController().signal);
  return surface === 'live'
    ? liveStrategy(deps, area, opts, defer)
    : cursorStrategy(deps, area, opts, surface);
}

/** One run on one surface, from its plan to its summary (or to the hand-off to v1). */
async function drive(
  deps: RunnerDeps,
  area: AreaRecord,
  opts: RunOptions,
  strategy: SurfaceStrategy,
): Promise<RunSummary | 'hand-off'> {
  const { jobs, now, log } = deps;
  const inTurn = deps.inTurn ?? atOnce;
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  // In its write turn: a run started during an import's merge waits for its commit (store/writeTurns.ts).
  const { run, resumed, deep } = await inTurn(() => strategy.prepare());
  let latency = 200;
  const progress = createProgressReporter(
    jobs,
    run.id,
    area.id,
    deps.requester.limiter,
    deps.emit,
    () => latency,
    strategy.concurrency,
  );
  const v1 = strategy.surface === 'live' ? '' : ' (v1)';
  progress.update('planning', { message: resumed ? `Resuming the interrupted sync${v1}.` : undefined });
  const logged = {
    area: area.id,
    run: run.id,
    kind: run.kind,
    since: run.since_day,
    surface: strategy.surface,
  };
  log.info(resumed ? 'resuming sync' : 'starting sync', logged);
  const unwatch = deps.watch.attach({ ...deps, inTurn, limiter: deps.requester.limiter }, run.id, progress);
  const commit: Commit = (write) => (deps.sink ? deps.sink.commit(run.id, write) : Promise.resolve(write()));
  strategy.start({
    run,
    deep,
    commit,
    writes: {
      db: deps.db,
      jobs,
      writer: deps.writer,
      areaId: area.id,
      shape: area.shape,
      runId: run.id,
      onPageCommitted: deps.onPageCommitted,
    },
    finalize: () =>
      commit(() =>
        finalizeRun(
          deps.db,
          jobs,
          deps.areas,
          jobs.run(run.id) as RunRow,
          area,
          now(),
          deps.limits.windowDays,
          deep,
        ),
      ),
    paged(counts, durationMs) {
      latency = latency * 0.8 + durationMs * 0.2;
      if (counts.new + counts.updated > 0) deps.onCommit?.(area.id);
      progress.update('running');
    },
  });
  const end = await workThrough({ ...deps, dbName: deps.db.name }, run.id, strategy, stop).finally(() => {
    unwatch();
    opts.signal?.removeEventListener('abort', onAbort);
  });
  const summary = (state: RunSummary['state'], extra: Partial<RunSummary> = {}): RunSummary =>
    summarizeRun(jobs, area, run.id, resumed, state, extra);

  if (end.handOff && !opts.signal?.aborted) {
    await inTurn(() =>
      jobs.finishRun(run.id, 'cancelled', now(), 'The v1 surface answered; the sync continues there.'),
    );
    log.info('moving the first backfill to the v1 surface', { area: area.id, run: run.id });
    return 'hand-off';
  }
  const error = end.failure;
  if (error && error.code !== 'cancelled') {
    if (error instanceof ApiError) await strategy.failed?.(error);
    await inTurn(() => jobs.setRunState(run.id, 'failed', error.message));
    progress.update('failed', { error, message: error.message });
    log.warn('sync failed', { area: area.id, run: run.id, code: error.code, message: error.message });
    return summary('failed', { error });
  }
  if (stop.signal.aborted || error) {
    await inTurn(() => jobs.setRunState(run.id, 'cancelled', 'Stopped.'));
    progress.update('paused', { message: 'Stopped; the next sync resumes where this one left off.' });
    return summary('cancelled');
  }
  const fin = await strategy.finish();
  if (fin.removed > 0) deps.onCommit?.(area.id);
  if (opts.details && strategy.surface !== 'v1-history')
    await fetchMissingDetails(deps, area, run.id, opts.signal);
  if (strategy.surface === 'v1') await refreshAreaScore(deps, area, stop.signal).catch(() => undefined);
  progress.update('done', fin.incomplete.length > 0 ? { message: fin.incomplete[0] } : {});
  const fair = fin.fairLowerBound !== undefined ? { fairLowerBound: fin.fairLowerBound } : {};
  return summary('done', { incomplete: fin.incomplete, ...fair });
}
