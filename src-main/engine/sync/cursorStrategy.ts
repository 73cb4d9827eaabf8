/**
 * The v1 surface's part of a run (runner.ts drives it): one cursor chain per area — the area's
 * ground circle (a polygon's smallest circle around its box centre) asked from the run's start in
 * occurred_at order, 500 a page, until the cursor ends. The cursor removes the live surface's
 * overlap re-fetch, so a run costs ceil(n / 500) requests. Each page is committed with the next
 * cursor (surfaceApply.ts) through the run's sink like the live surface's pages (office leaders
 * too), so a kill resumes from the stored cursor; the run is persisted with its surface and
 * finishes there. Finalize (removals, lower bound) is the live run's: a v1 job's tile is the degree
 * circle around the area, and a removal is only proven inside the area itself.
 *
 * `history`: the opt-in 36-month backfill on `/v1/history` (Pro and Enterprise): the months before
 * the plan window, which the live surface never served. It adds incidents and never removes any.
 */
import { milesBetween, type Shape } from '../../../src-shared/geo';
import { ApiError } from '../api/apiError';
import { coveringTile } from '../geo/tiles';
import { addDays, dayStartUtc, localDayOf } from '../time/localDay';
import { zoneAt } from '../time/zoneAt';
import type { AreaRecord } from '../areas/areaStore';
import { DAY, MAX_RECORDS, RESUME_MAX_AGE_MS } from './constants';
import { nextSince } from './frontier';
import type { JobRow, RunRow } from './jobStore';
import { densityCounter, planRun, type Depth } from './planner';
import type { PreparedRun, RunHooks, RunnerDeps, RunOptions, StepOutcome, SurfaceStrategy } from './runTypes';
import { historyAnswered, surfaceGone } from './serverProfile';
import { applyV1Page } from './surfaceApply';
import { chainBound, createChainGuard, refuseTimesOutside } from './v1Chain';

/** The history the spec describes for /v1/history: 36 months. */
export const HISTORY_MONTHS = 36;
export const HISTORY_DAYS = 1096;
/** Rows a /v1/history page holds when no limit is sent (the spec gives none; the simulator's default). */
export const HISTORY_PAGE_GUESS = 100;

/** The ground circle v1 is asked about: around the covering tile's centre, through the whole area. */
export function v1Circle(shape: Shape): { lat: number; lon: number; radiusMi: number } {
  const t = coveringTile(shape);
  if (shape.kind === 'circle')
    return { lat: shape.lat, lon: shape.lon, radiusMi: shape.radiusMi * 1.001 + 0.001 };
  const reach = Math.max(...shape.points.map(([lat, lon]) => milesBetween(t.lat, t.lon, lat, lon)));
  return { lat: t.lat, lon: t.lon, radiusMi: reach * 1.001 + 0.001 };
}

type Surface = 'v1' | 'v1-history';

/** Resumes the area's v1 run in progress, else plans one (one transaction: a whole plan or none). */
function prepareV1Run(deps: RunnerDeps, area: AreaRecord, depth: Depth, surface: Surface): PreparedRun {
  const { db, jobs } = deps;
  const now = deps.now();
  return db
    .transaction(() => {
      const latest = jobs.latestRun(area.id);
      if (latest && latest.state !== 'done') {
        const fresh = now - latest.started_at < RESUME_MAX_AGE_MS;
        if (fresh && jobs.surfaceOf(latest.id) === surface && jobs.jobs(latest.id, 'pending').length > 0) {
          jobs.setRunState(latest.id, 'running');
          return { run: jobs.run(latest.id) as RunRow, resumed: true, deep: latest.kind === 'backfill' };
        }
        jobs.finishRun(latest.id, 'cancelled', now, latest.error ?? 'Superseded by a new sync.');
      }
      const tile = coveringTile(area.shape);
      const zone = zoneAt(tile.lat, tile.lon);
      const windowFrom = now - deps.limits.windowDays * DAY;
      let kind: RunRow['kind'];
      let since: string;
      let startAt: number;
      let endAt: number | null = null;
      let deep = true;
      let estimate: number;
      if (surface === 'v1-history') {
        kind = 'backfill';
        startAt = now - HISTORY_DAYS * DAY;
        endAt = windowFrom;
        since = addDays(localDayOf(startAt, zone), -1);
        estimate = historyEstimate(deps, area, now);
      } else {
        const plan = planRun(db, area, now, deps.limits, depth);
        kind = plan.kind;
        deep = plan.deep;
        since = nextSince(plan.fromUtc, zone);
        // occurred_at from the start of the day after `since`: whatever the live surface's since would cover.
        startAt = dayStartUtc(addDays(since, 1), zone);
        const n = densityCounter(db)(tile, plan.fromUtc);
        estimate = Math.max(1, Math.ceil(n / MAX_RECORDS));
      }
      const runId = jobs.createRun(area.id, kind, since, windowFrom, now);
      jobs.setSurface(runId, surface);
      const jobId = jobs.insertJob(
        runId,
        { parentId: null, rootId: null, tile, types: null, since, estimate },
        now,
      );
      jobs.setSpan(jobId, startAt, endAt);
      jobs.setPlanned(runId, estimate);
      return { run: jobs.run(runId) as RunRow, resumed: false, deep };
    })
    .immediate();
}

/**
 * Requests the history backfill would take: the months before the window at the area's density
 * inside the window (the local file's), in pages of HISTORY_PAGE_GUESS rows.
 */
export function historyEstimate(
  deps: Pick<RunnerDeps, 'db' | 'limits'>,
  area: AreaRecord,
  now: number,
): number {
  const tile = coveringTile(area.shape);
  const windowFrom = now - deps.limits.windowDays * DAY;
  const inWindow = densityCounter(deps.db)(tile, windowFrom);
  const perDay = inWindow / Math.max(1, deps.limits.windowDays);
  const days = Math.max(0, HISTORY_DAYS - deps.limits.windowDays);
  return Math.max(1, Math.ceil((perDay * days) / HISTORY_PAGE_GUESS));
}

export function cursorStrategy(
  deps: RunnerDeps,
  area: AreaRecord,
  opts: RunOptions,
  surface: Surface,
): SurfaceStrategy {
  const { db, jobs, now, log } = deps;
  const history = surface === 'v1-history';
  const circle = v1Circle(area.shape);
  let hooks: RunHooks;

  return {
    surface,
    concurrency: 1,
    prepare: () => prepareV1Run(deps, area, opts.depth ?? 'auto', surface),
    start(h) {
      hooks = h;
    },
    async step(first: JobRow, signal: AbortSignal): Promise<StepOutcome> {
      let job: JobRow | undefined = first;
      let restarted = false;
      const chain = createChainGuard(
        chainBound({
          radiusMi: circle.radiusMi,
          startAt: first.start_at ?? 0,
          endAt: first.end_at ?? now(),
          plannedPages: hooks.run.planned,
          pageRows: history ? HISTORY_PAGE_GUESS : MAX_RECORDS,
        }),
      );
      while (job && job.state === 'pending' && !signal.aborted) {
        const query = {
          ...circle,
          start: new Date(job.start_at ?? 0).toISOString(),
          ...(job.end_at !== null ? { end: new Date(job.end_at).toISOString() } : {}),
          limit: MAX_RECORDS,
          ...(job.cursor ? { cursor: job.cursor } : {}),
          ...(history ? { history: true } : {}),
        };
        let result;
        try {
          result = await deps.requester.page(query, signal);
        } catch (error) {
          if (!(error instanceof ApiError && error.code === 'bad_input' && job.cursor && !restarted))
            throw error;
          // The service no longer takes the stored cursor (expired, or another query): start the chain again.
          log.warn('v1 cursor refused; asking the chain again from its start', { message: error.message });
          const id = job.id;
          await hooks.commit(() => jobs.setCursor(id, null));
          restarted = true;
          chain.reset();
          job = jobs.job(first.id);
          continue;
        }
        chain.check(job.cursor, result);
        refuseTimesOutside(job.start_at, job.end_at, now(), result);
        const through = job.end_at !== null ? localDayOf(job.end_at, zoneAt(job.lat, job.lon)) : undefined;
        const page = job;
        const applied = await hooks.commit(() =>
          applyV1Page(
            // A history backfill's pages are not news: the page hook (alerts) hears current ones only.
            {
              ...hooks.writes,
              onPageCommitted: history ? undefined : hooks.writes.onPageCommitted,
              now: now(),
              ...(through ? { throughDay: through } : {}),
            },
            page,
            result,
          ),
        );
        hooks.paged(applied.counts, result.meta.durationMs);
        job = jobs.job(first.id);
      }
      return 'settled';
    },
    async finish() {
      if (history) {
        // A history run's end: its lower bound (rows seen / 500) and state; it removes nothing.
        await hooks.commit(() =>
          db
            .transaction(() => {
              const seen = jobs.allJobs(hooks.run.id).reduce((n, j) => n + j.rows, 0);
              jobs.setLowerBound(hooks.run.id, Math.max(1, Math.ceil(seen / MAX_RECORDS)));
              jobs.finishRun(hooks.run.id, 'done', now(), null);
            })
            .immediate(),
        );
        await deps.profile.learn((p) => historyAnswered(p, true));
        return { removed: 0, incomplete: [] };
      }
      const fin = await hooks.finalize();
      return { removed: fin.removed, incomplete: [] };
    },
    async failed(error) {
      // v1 went away: say so, and the next run goes back to the live surface.
      if (error instanceof ApiError && error.code === 'not_found' && !history)
        await deps.profile.learn((p) => surfaceGone(p, error.message, now()));
      if (error instanceof ApiError && error.code === 'bad_input' && history)
        await deps.profile.learn((p) => historyAnswered(p, false));
    },
  };
}
