/**
 * A run on the v1 surface: one cursor chain per area — the area's ground circle (a polygon's
 * smallest circle around its box centre) asked from the run's start in occurred_at order, 500 a
 * page, until the cursor ends. The cursor removes the live surface's overlap re-fetch, so a run
 * costs ceil(n / 500) requests. Each page is written with the next cursor in one transaction
 * (surfaceApply.ts), so a kill resumes from the stored cursor; the run is persisted with its
 * surface and finishes there. Finalize (removals, lower bound) is the live run's: a v1 job's tile
 * is the degree circle around the area, and a removal is only proven inside the area itself.
 *
 * `history`: the opt-in 36-month backfill on `/v1/history` (Pro and Enterprise): the months before
 * the plan window, which the live surface never served. It adds incidents and never removes any.
 */
import { milesBetween, type Shape } from '../../../src-shared/geo';
import { ApiError } from '../api/apiError';
import { coveringTile } from '../geo/tiles';
import { localFailureOf } from '../store/localFailure';
import { addDays, dayStartUtc, localDayOf } from '../time/localDay';
import { zoneAt } from '../time/zoneAt';
import type { AreaRecord } from './areaStore';
import { CLOCK_SLACK_MS, DAY, MAX_RECORDS, RESUME_MAX_AGE_MS } from './constants';
import { fetchMissingDetails } from './details';
import { finalizeRun } from './finalize';
import { nextSince } from './frontier';
import type { JobRow, RunRow } from './jobStore';
import { densityCounter, planRun, type Depth } from './planner';
import { createProgressReporter } from './progress';
import { summarizeRun, watchRun } from './runWatch';
import type { RunError, RunnerDeps, RunOptions, RunSummary } from './runner';
import { applyV1Page, setCursor } from './surfaceApply';
import { refreshAreaScore } from './surfaceScore';
import { setRunSurface, surfaceOfRun, type Surface } from './surfaceSelect';
import { readSurface, writeSurface } from './surfaceStore';

/** The history the spec describes for /v1/history: 36 months. */
export const HISTORY_MONTHS = 36;
export const HISTORY_DAYS = 1096;
/** Rows a /v1/history page holds when no limit is sent (the spec gives none; the simulator's default). */
export const HISTORY_PAGE_GUESS = 100;

export type V1RunOptions = RunOptions & { history?: boolean };

/** The ground circle v1 is asked about: around the covering tile's centre, through the whole area. */
export function v1Circle(shape: Shape): { lat: number; lon: number; radiusMi: number } {
  const t = coveringTile(shape);
  if (shape.kind === 'circle')
    return { lat: shape.lat, lon: shape.lon, radiusMi: shape.radiusMi * 1.001 + 0.001 };
  const reach = Math.max(...shape.points.map(([lat, lon]) => milesBetween(t.lat, t.lon, lat, lon)));
  return { lat: t.lat, lon: t.lon, radiusMi: reach * 1.001 + 0.001 };
}

type V1Job = JobRow & { cursor: string | null; start_at: number | null; end_at: number | null };

function v1Jobs(deps: RunnerDeps, runId: number): V1Job[] {
  return deps.db
    .prepare<[number], V1Job>("SELECT * FROM sync_jobs WHERE run_id = ? AND state = 'pending' ORDER BY id")
    .all(runId);
}

/** Resumes the area's v1 run in progress, else plans one (one transaction: a whole plan or none). */
function prepareV1Run(deps: RunnerDeps, area: AreaRecord, depth: Depth, surface: Surface) {
  const { db, jobs } = deps;
  const now = deps.now();
  return db
    .transaction(() => {
      const latest = jobs.latestRun(area.id);
      if (latest && latest.state !== 'done') {
        const fresh = now - latest.started_at < RESUME_MAX_AGE_MS;
        if (
          fresh &&
          surfaceOfRun(deps, latest.id) === surface &&
          jobs.jobs(latest.id, 'pending').length > 0
        ) {
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
      setRunSurface(deps, runId, surface);
      const jobId = jobs.insertJob(
        runId,
        { parentId: null, rootId: null, tile, types: null, since, estimate },
        now,
      );
      db.prepare('UPDATE sync_jobs SET start_at = ?, end_at = ? WHERE id = ?').run(startAt, endAt, jobId);
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

export async function runAreaOnV1(
  deps: RunnerDeps,
  area: AreaRecord,
  opts: V1RunOptions,
  surface: 'v1' | 'v1-history',
): Promise<RunSummary> {
  const { db, jobs, requester, now, log } = deps;
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const signal = stop.signal;
  const { run, resumed, deep } = prepareV1Run(deps, area, opts.depth ?? 'auto', surface);
  let latency = 200;
  const progress = createProgressReporter(
    jobs,
    run.id,
    area.id,
    requester.limiter,
    deps.emit,
    () => latency,
    1,
  );
  progress.update('planning', { message: resumed ? 'Resuming the interrupted sync (v1).' : undefined });
  log.info(resumed ? 'resuming sync' : 'starting sync', {
    area: area.id,
    run: run.id,
    kind: run.kind,
    surface,
  });
  const unwatch = watchRun(deps, run.id, progress);
  const history = surface === 'v1-history';
  const circle = v1Circle(area.shape);
  let failure: RunError | null = null;
  try {
    for (const first of v1Jobs(deps, run.id)) {
      let job: V1Job | undefined = first;
      let restarted = false;
      const chain = createChainGuard(
        chainBound({
          radiusMi: circle.radiusMi,
          startAt: first.start_at ?? 0,
          endAt: first.end_at ?? now(),
          plannedPages: (jobs.run(run.id) as RunRow).planned,
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
          result = await requester.page(query, signal);
        } catch (error) {
          if (error instanceof ApiError && error.code === 'bad_input' && job.cursor && !restarted) {
            // The service no longer takes the stored cursor (expired, or another query): start the chain again.
            log.warn('v1 cursor refused; asking the chain again from its start', { message: error.message });
            setCursor(db, job.id, null);
            restarted = true;
            chain.reset();
            job = v1Jobs(deps, run.id).find((j) => j.id === first.id);
            continue;
          }
          throw error;
        }
        chain.check(job.cursor, result);
        refuseTimesOutside(job.start_at, job.end_at, now(), result);
        latency = latency * 0.8 + result.meta.durationMs * 0.2;
        const through = job.end_at !== null ? localDayOf(job.end_at, zoneAt(job.lat, job.lon)) : undefined;
        const applied = applyV1Page(
          {
            db,
            jobs,
            writer: deps.writer,
            areaId: area.id,
            shape: area.shape,
            runId: run.id,
            now: now(),
            alerts: !history,
            ...(through ? { throughDay: through } : {}),
          },
          job,
          result,
        );
        if (applied.counts.new + applied.counts.updated > 0) deps.onCommit?.(area.id);
        progress.update('running');
        job = v1Jobs(deps, run.id).find((j) => j.id === first.id);
      }
    }
  } catch (error) {
    failure = error instanceof ApiError ? error : (localFailureOf(error, db.name) ?? ownFault());
    if (!(error instanceof ApiError)) log.error('sync step failed', { error });
    if (error instanceof ApiError && error.code === 'not_found' && !history) {
      // v1 went away: say so, and the next run goes back to the live surface.
      writeSurface(db, {
        baseUrl: deps.baseUrl,
        probedAt: now(),
        state: 'absent',
        reason: error.message,
        history: readSurface(db, deps.baseUrl)?.history ?? null,
      });
    }
    if (error instanceof ApiError && error.code === 'bad_input' && history) {
      const rec = readSurface(db, deps.baseUrl);
      if (rec) writeSurface(db, { ...rec, history: false });
    }
  } finally {
    unwatch();
    opts.signal?.removeEventListener('abort', onAbort);
  }

  const summary = (state: RunSummary['state'], extra: Partial<RunSummary> = {}): RunSummary =>
    summarizeRun(jobs, area, run.id, resumed, state, extra);
  if (failure && failure.code !== 'cancelled') {
    jobs.setRunState(run.id, 'failed', failure.message);
    progress.update('failed', { error: failure, message: failure.message });
    log.warn('sync failed', { area: area.id, run: run.id, code: failure.code, message: failure.message });
    return summary('failed', { error: failure });
  }
  if (signal.aborted || failure) {
    jobs.setRunState(run.id, 'cancelled', 'Stopped.');
    progress.update('paused', { message: 'Stopped; the next sync resumes where this one left off.' });
    return summary('cancelled');
  }
  if (history) {
    finishHistory(deps, run.id);
  } else {
    const fin = finalizeRun(
      db,
      jobs,
      deps.areas,
      jobs.run(run.id) as RunRow,
      area,
      now(),
      deps.limits.windowDays,
      deep,
    );
    if (fin.removed > 0) deps.onCommit?.(area.id);
  }
  if (opts.details && !history) await fetchMissingDetails(deps, area, run.id, opts.signal);
  if (!history) await refreshAreaScore(deps, area, signal).catch(() => undefined);
  requester.runId = null;
  if (history) {
    const rec = readSurface(db, deps.baseUrl);
    if (rec) writeSurface(db, { ...rec, history: true });
  }
  progress.update('done');
  return summary('done');
}

/** A history run's end: its lower bound (rows seen / 500) and state; it removes nothing. */
function finishHistory(deps: RunnerDeps, runId: number): void {
  const { db, jobs } = deps;
  db.transaction(() => {
    const seen = jobs.allJobs(runId).reduce((n, j) => n + j.rows, 0);
    jobs.setLowerBound(runId, Math.max(1, Math.ceil(seen / MAX_RECORDS)));
    jobs.finishRun(runId, 'done', deps.now(), null);
  }).immediate();
}

function ownFault(): RunError {
  return {
    code: 'internal',
    message:
      'The sync stopped on a problem inside Blotter; the details are in the log. Syncing again resumes where it stopped.',
    fatal: true,
  };
}

/**
 * Every occurred_at of a page must lie in what was asked — from the query's `start` (for incidents,
 * set from the plan window; for history, the requested start) to its `end` (history) — and not in
 * the future beyond the clock slack. Anything else is the service's fault (bad_response), refused
 * before the page is kept: a 1970 or 2150 that was stored would sit in the archive as a real date.
 */
export function refuseTimesOutside(
  startAt: number | null,
  endAt: number | null,
  now: number,
  page: { incidents: { cdid: number }[]; occurredUtc: number[]; meta: { url: string } },
): void {
  const latest = Math.min(endAt ?? Infinity, now + CLOCK_SLACK_MS);
  page.occurredUtc.forEach((t, k) => {
    if (Number.isFinite(t) && t >= (startAt ?? -Infinity) && t <= latest) return;
    const asked =
      `${startAt === null ? 'any time' : new Date(startAt).toISOString()} to ` +
      `${endAt === null ? 'now' : new Date(endAt).toISOString()}`;
    const when = Number.isFinite(t) ? new Date(t).toISOString() : 'an unreadable time';
    const why = t > now + CLOCK_SLACK_MS ? 'in the future' : `outside what was asked (${asked})`;
    throw new ApiError(
      'bad_response',
      `The service's v1 page gave incident ${page.incidents[k]?.cdid ?? '?'} an occurred_at of ${when}, ${why}; the run stopped there.`,
      { url: page.meta.url, status: 200 },
    );
  });
}

/** Pages in a row that bring no incident the chain has not already given, before it is refused. */
export const MAX_PAGES_WITHOUT_NEWS = 3;

/**
 * The stated cap on what an area can plausibly hold: incidents a square mile a day (the simulator's
 * densest Midtown holds about 30, a real downtown fewer), and never less than a floor that a pile
 * (hundreds at one block in a day) fits under.
 */
export const PLAUSIBLE_PER_SQ_MI_DAY = 100;
export const MIN_CHAIN_BOUND = 10_000;

export type ChainBound = { max: number; why: string };

/**
 * The most incidents one cursor chain may bring before it is refused: ten times the run's own
 * estimate (the local file's density, as the live surface plans), or the stated cap for the circle
 * and the days asked, or MIN_CHAIN_BOUND — whichever is largest.
 */
export function chainBound(q: {
  radiusMi: number;
  startAt: number;
  endAt: number;
  plannedPages: number;
  pageRows: number;
}): ChainBound {
  const sqMi = Math.PI * q.radiusMi * q.radiusMi;
  const days = Math.max(1, (q.endAt - q.startAt) / DAY);
  const estimated = 10 * Math.max(1, q.plannedPages) * q.pageRows;
  const stated = Math.ceil(PLAUSIBLE_PER_SQ_MI_DAY * sqMi * days);
  const max = Math.max(estimated, stated, MIN_CHAIN_BOUND);
  const fmt = (n: number): string => n.toLocaleString('en-US');
  return {
    max,
    why:
      `brought more than ${fmt(max)} incidents for ${fmt(Math.round(sqMi * 10) / 10)} square miles over ` +
      `${Math.round(days)} days — more than the area can plausibly hold (ten times the estimate of ` +
      `${fmt(Math.max(1, q.plannedPages) * q.pageRows)}, ${PLAUSIBLE_PER_SQ_MI_DAY} a square mile a day, ` +
      `or ${fmt(MIN_CHAIN_BOUND)}), yet went on; nothing was marked removed`,
  };
}

/**
 * A cursor chain must move on: a next_cursor the chain has already sent (a circle), or pages that
 * bring nothing new MAX_PAGES_WITHOUT_NEWS times in a row, is the service's fault (bad_response),
 * refused before the page is kept, so a faulty or hostile server cannot spend the key's requests
 * for ever on one area. So is a chain that brings more new incidents than the area can plausibly
 * hold (`bound`, chainBound): the run fails, and a failed run marks nothing removed.
 */
export function createChainGuard(bound?: ChainBound) {
  let sent = new Set<string>();
  let cdids = new Set<number>();
  let stale = 0;
  const refuse = (url: string, why: string) =>
    new ApiError('bad_response', `The service's v1 pages ${why}; the run stopped there.`, {
      url,
      status: 200,
    });
  return {
    reset(): void {
      sent = new Set();
      cdids = new Set();
      stale = 0;
    },
    check(
      cursor: string | null,
      page: { incidents: { cdid: number }[]; nextCursor: string | null; meta: { url: string } },
    ): void {
      if (cursor !== null) sent.add(cursor);
      if (page.nextCursor === null) return;
      if (sent.has(page.nextCursor))
        throw refuse(page.meta.url, 'went round in a circle (a cursor it had sent before)');
      let news = 0;
      for (const i of page.incidents) {
        if (cdids.has(i.cdid)) continue;
        cdids.add(i.cdid);
        news++;
      }
      if (bound && cdids.size > bound.max) throw refuse(page.meta.url, bound.why);
      stale = news > 0 ? 0 : stale + 1;
      if (stale >= MAX_PAGES_WITHOUT_NEWS)
        throw refuse(
          page.meta.url,
          `brought no new incident ${MAX_PAGES_WITHOUT_NEWS} times in a row, yet went on`,
        );
    },
  };
}
