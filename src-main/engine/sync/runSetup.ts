/**
 * Setting a run up: resume the area's unfinished run when it is recent enough, else plan a new one
 * and persist its root jobs — in one transaction, so a kill leaves either no run or a whole plan.
 */
import type { Db } from '../store/database';
import { daysBetween, localDayOf } from '../time/localDay';
import { zoneAt } from '../time/zoneAt';
import type { AreaRecord } from '../areas/areaStore';
import { DAY, DEEP_REFRESH_DAYS, RESUME_MAX_AGE_MS } from './constants';
import type { JobStore, RunRow } from './jobStore';
import { planRun, type Depth, type PlanOptions, type SyncLimits } from './planner';
import { rootSince, sinceFor } from './windowStart';

type SetupDeps = { db: Db; jobs: JobStore; limits: SyncLimits; now: () => number };

/** Resumes the area's unfinished run when recent enough; else plans a new one (in one transaction). */
export function prepareRun(deps: SetupDeps, area: AreaRecord, depth: Depth, planOptions: PlanOptions = {}) {
  const { db, jobs } = deps;
  const now = deps.now();
  return db
    .transaction(() => {
      const latest = jobs.latestRun(area.id);
      if (latest && latest.state !== 'done') {
        const fresh = now - latest.started_at < RESUME_MAX_AGE_MS;
        // A run still 'running' with nothing pending was killed between its last page and its end:
        // it is resumed to be finished (no request), not replaced by a new plan that asks it all again.
        const killedAtItsEnd = latest.state === 'running';
        if (fresh && (killedAtItsEnd || jobs.jobs(latest.id, 'pending').length > 0)) {
          jobs.setRunState(latest.id, 'running');
          return { run: jobs.run(latest.id) as RunRow, resumed: true, deep: isDeep(latest) };
        }
        jobs.finishRun(latest.id, 'cancelled', now, latest.error ?? 'Superseded by a new sync.');
      }
      const plan = planRun(db, area, now, deps.limits, depth, planOptions);
      const zone = zoneAt(plan.roots[0]?.lat ?? 0, plan.roots[0]?.lon ?? 0);
      // The roots ask from `since`, or with none (the window's own start) when the run reaches back
      // to the window's first days; the run's since_day is what it wants (finalize, fair bound).
      const since = rootSince(plan.fromUtc, zone, now, deps.limits.windowDays);
      const runId = jobs.createRun(
        area.id,
        plan.kind,
        sinceFor(plan.fromUtc, zone),
        now - deps.limits.windowDays * DAY,
        now,
      );
      plan.roots.forEach((tile, i) => {
        jobs.insertJob(
          runId,
          { parentId: null, rootId: null, tile, types: null, since, estimate: plan.estimates[i] ?? 1 },
          now,
        );
      });
      jobs.setPlanned(
        runId,
        plan.estimates.reduce((a, b) => a + b, 0),
      );
      const run = jobs.run(runId) as RunRow;
      return { run, resumed: false, deep: plan.deep };
    })
    .immediate();
}

function isDeep(run: RunRow): boolean {
  if (run.kind === 'backfill') return true;
  const zone = 'UTC';
  return daysBetween(run.since_day, localDayOf(run.started_at, zone)) >= DEEP_REFRESH_DAYS;
}

/**
 * Types seen in the local file (so a type split also asks about types the spec does not list). A
 * scan of the table (no index serves it): the sync reads it only when it must split by type.
 */
export function knownTypes(db: Db): string[] {
  return db
    .prepare<[], { type: string }>('SELECT DISTINCT type FROM incidents LIMIT 100')
    .all()
    .map((r) => r.type);
}
