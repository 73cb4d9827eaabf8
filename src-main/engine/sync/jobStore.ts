/**
 * The persisted sync state: runs, their tile jobs, the coverage ledger and the request log. Plain
 * prepared statements; the caller decides the transaction boundaries (runner.ts, applyPage.ts).
 */
import type { Tile } from '../geo/tiles';
import type { JobMode } from './decide';
import type { Db } from '../store/database';
import { addDays, daysBetween } from '../time/localDay';
import type { LoggedRequest } from './requester';

export type RunKind = 'backfill' | 'refresh';
export type RunState = 'running' | 'done' | 'failed' | 'cancelled';

export type RunRow = {
  id: number;
  area_id: number;
  kind: RunKind;
  state: RunState;
  started_at: number;
  finished_at: number | null;
  planned: number;
  done: number;
  new_count: number;
  updated_count: number;
  removed_count: number;
  error: string | null;
  since_day: string;
  window_start: number;
  requests: number;
  rate_limited: number;
  lower_bound: number | null;
  /** ceil(N / 500) for the area's incidents after since (fairBound.ts); null until the run is done. */
  fair_lower_bound: number | null;
};

/** The surface a run asks (runTypes.ts `Surface`). */
export type RunSurface = 'live' | 'v1' | 'v1-history';

export type JobState = 'pending' | 'done' | 'split' | 'failed';

export type JobRow = {
  id: number;
  run_id: number;
  parent_id: number | null;
  root_id: number | null;
  lat: number;
  lon: number;
  radius: number;
  cell_min_lat: number;
  cell_max_lat: number;
  cell_min_lon: number;
  cell_max_lon: number;
  depth: number;
  types: string | null;
  since: string;
  mode: JobMode;
  asc_last_utc: number | null;
  state: JobState;
  pages: number;
  rows: number;
  estimate: number;
  error: string | null;
  /** v1: the chain's next cursor (null: from its start); `start_at`/`end_at` its occurred_at bounds. */
  cursor: string | null;
  start_at: number | null;
  end_at: number | null;
};

export const tileOfJob = (j: JobRow): Tile => ({
  lat: j.lat,
  lon: j.lon,
  radius: j.radius,
  depth: j.depth,
  cell: { minLat: j.cell_min_lat, maxLat: j.cell_max_lat, minLon: j.cell_min_lon, maxLon: j.cell_max_lon },
});

export const typesOfJob = (j: JobRow): string[] | null =>
  j.types === null ? null : (JSON.parse(j.types) as string[]);

export type NewJob = {
  parentId: number | null;
  rootId: number | null;
  tile: Tile;
  types: string[] | null;
  since: string;
  estimate: number;
  mode?: JobMode;
  ascLastUtc?: number | null;
};

export type CountDelta = Partial<{
  done: number;
  new: number;
  updated: number;
  removed: number;
  requests: number;
  rateLimited: number;
}>;

export function createJobStore(db: Db) {
  const s = {
    insertRun: db.prepare(
      `INSERT INTO sync_runs (area_id, kind, state, started_at, since_day, window_start)
       VALUES (?, ?, 'running', ?, ?, ?)`,
    ),
    latestRun: db.prepare<[number], RunRow>(
      'SELECT * FROM sync_runs WHERE area_id = ? ORDER BY id DESC LIMIT 1',
    ),
    run: db.prepare<[number], RunRow>('SELECT * FROM sync_runs WHERE id = ?'),
    finishRun: db.prepare('UPDATE sync_runs SET state = ?, finished_at = ?, error = ? WHERE id = ?'),
    setRunState: db.prepare("UPDATE sync_runs SET state = ?, error = ? WHERE id = ? AND state != 'done'"),
    counts: db.prepare(
      `UPDATE sync_runs SET done = done + @done, new_count = new_count + @new, updated_count = updated_count + @updated,
         removed_count = removed_count + @removed, requests = requests + @requests, rate_limited = rate_limited + @rateLimited
       WHERE id = @id`,
    ),
    planned: db.prepare('UPDATE sync_runs SET planned = ? WHERE id = ?'),
    lowerBound: db.prepare('UPDATE sync_runs SET lower_bound = ? WHERE id = ?'),
    fairLowerBound: db.prepare('UPDATE sync_runs SET fair_lower_bound = ? WHERE id = ?'),
    insertJob: db.prepare(
      `INSERT INTO sync_jobs (run_id, parent_id, root_id, lat, lon, radius, cell_min_lat, cell_max_lat, cell_min_lon,
         cell_max_lon, depth, types, since, mode, asc_last_utc, estimate, updated_at)
       VALUES (@run, @parent, @root, @lat, @lon, @radius, @minLat, @maxLat, @minLon, @maxLon, @depth, @types, @since,
         @mode, @ascLast, @estimate, @now)`,
    ),
    jobsIn: db.prepare<[number, string], JobRow>(
      'SELECT * FROM sync_jobs WHERE run_id = ? AND state = ? ORDER BY id',
    ),
    allJobs: db.prepare<[number], JobRow>('SELECT * FROM sync_jobs WHERE run_id = ? ORDER BY id'),
    job: db.prepare<[number], JobRow>('SELECT * FROM sync_jobs WHERE id = ?'),
    updateJob: db.prepare(
      `UPDATE sync_jobs SET since = @since, mode = @mode, asc_last_utc = @ascLast, state = @state, pages = pages + 1,
         rows = rows + @rows, estimate = @estimate, error = @error, updated_at = @now WHERE id = @id`,
    ),
    runSurface: db.prepare<[number], { surface: RunSurface }>('SELECT surface FROM sync_runs WHERE id = ?'),
    setRunSurface: db.prepare('UPDATE sync_runs SET surface = ? WHERE id = ?'),
    setCursor: db.prepare('UPDATE sync_jobs SET cursor = ? WHERE id = ?'),
    setJobSpan: db.prepare('UPDATE sync_jobs SET start_at = ?, end_at = ? WHERE id = ?'),
    failPending: db.prepare(
      "UPDATE sync_jobs SET state = 'failed', error = ? WHERE run_id = ? AND state = 'pending'",
    ),
    pendingEstimate: db.prepare<[number], { n: number | null }>(
      "SELECT sum(estimate) AS n FROM sync_jobs WHERE run_id = ? AND state = 'pending'",
    ),
    ledger: db.prepare(
      `INSERT INTO coverage (area_id, tile, day, status, checked_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (area_id, tile, day) DO UPDATE SET status = excluded.status, checked_at = excluded.checked_at`,
    ),
    log: db.prepare(
      'INSERT INTO request_log (run_id, at, url, status, duration_ms, records, error) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
  };

  return {
    createRun(areaId: number, kind: RunKind, sinceDay: string, windowStart: number, now: number): number {
      return Number(s.insertRun.run(areaId, kind, now, sinceDay, windowStart).lastInsertRowid);
    },
    latestRun: (areaId: number): RunRow | undefined => s.latestRun.get(areaId),
    run: (id: number): RunRow | undefined => s.run.get(id),
    finishRun(id: number, state: RunState, now: number, error: string | null = null): void {
      s.finishRun.run(state, now, error, id);
    },
    setRunState(id: number, state: RunState, error: string | null = null): void {
      s.setRunState.run(state, error, id);
    },
    addCounts(id: number, d: CountDelta): void {
      s.counts.run({ id, done: 0, new: 0, updated: 0, removed: 0, requests: 0, rateLimited: 0, ...d });
    },
    setPlanned: (id: number, planned: number) => s.planned.run(planned, id),
    setLowerBound: (id: number, lb: number) => s.lowerBound.run(lb, id),
    setFairLowerBound: (id: number, lb: number) => s.fairLowerBound.run(lb, id),
    insertJob(runId: number, j: NewJob, now: number): number {
      const { tile } = j;
      return Number(
        s.insertJob.run({
          run: runId,
          parent: j.parentId,
          root: j.rootId,
          lat: tile.lat,
          lon: tile.lon,
          radius: tile.radius,
          minLat: tile.cell.minLat,
          maxLat: tile.cell.maxLat,
          minLon: tile.cell.minLon,
          maxLon: tile.cell.maxLon,
          depth: tile.depth,
          types: j.types === null ? null : JSON.stringify(j.types),
          since: j.since,
          mode: j.mode ?? 'asc',
          ascLast: j.ascLastUtc ?? null,
          estimate: Number.isFinite(j.estimate) ? Math.max(0, Math.ceil(j.estimate)) : 1000,
          now,
        }).lastInsertRowid,
      );
    },
    jobs: (runId: number, state: JobState): JobRow[] => s.jobsIn.all(runId, state),
    allJobs: (runId: number): JobRow[] => s.allJobs.all(runId),
    job: (id: number): JobRow | undefined => s.job.get(id),
    updateJob(
      id: number,
      u: {
        since: string;
        mode: JobMode;
        ascLast: number | null;
        state: JobState;
        rows: number;
        estimate: number;
        error?: string | null;
      },
      now: number,
    ): void {
      const estimate = Number.isFinite(u.estimate) ? Math.max(0, Math.ceil(u.estimate)) : 1000;
      s.updateJob.run({ id, ...u, estimate, error: u.error ?? null, now });
    },
    /** The surface the run asks (runner.ts); 'live' for runs from before v1. */
    surfaceOf: (runId: number): RunSurface => s.runSurface.get(runId)?.surface ?? 'live',
    setSurface: (runId: number, surface: RunSurface) => s.setRunSurface.run(surface, runId),
    /** Moves a v1 job's cursor (persisted with the page it follows), or settles it. */
    setCursor: (jobId: number, cursor: string | null) => s.setCursor.run(cursor, jobId),
    /** A v1 job's occurred_at bounds (null end: up to now). */
    setSpan: (jobId: number, startAt: number, endAt: number | null) =>
      s.setJobSpan.run(startAt, endAt, jobId),
    /** A run that cannot finish: its pending jobs failed with the reason, the run cancelled (one transaction). */
    abandonRun(runId: number, why: string, now: number): void {
      db.transaction(() => {
        s.failPending.run(why, runId);
        s.finishRun.run('cancelled', now, why, runId);
      }).immediate();
    },
    pendingEstimate: (runId: number): number => s.pendingEstimate.get(runId)?.n ?? 0,
    /** Ledger entries for the days after `since` up to and including `through`. */
    ledger(
      areaId: number,
      tile: string,
      since: string,
      through: string,
      status: 'complete' | 'saturated' | 'provisional',
      now: number,
    ): void {
      const n = daysBetween(since, through);
      for (let k = 1; k <= n; k++) s.ledger.run(areaId, tile, addDays(since, k), status, now);
    },
    /** Logs a request, unless the rate ledger already wrote its row (`logId`). */
    logRequest(runId: number | null, r: LoggedRequest): void {
      if (r.logId !== undefined) return;
      s.log.run(runId, r.at, r.url, r.status, Math.round(r.durationMs), r.records, r.error);
    },
  };
}

export type JobStore = ReturnType<typeof createJobStore>;
