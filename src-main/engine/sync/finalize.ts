/**
 * The end of a run, in one transaction: removals, the lower bound, the run's and the area's state.
 *
 * Removal: an incident is marked removed only where a complete re-query of its tile proved it gone:
 * inside a finished (unsplit, unfailed) job's cell (the part of the plane its circle was asked to
 * cover — inside the circle under either reading of the radius) and the area, of a type that job asked about,
 * reported late enough after the run's `since` that it must have been in the answer
 * (report ≥ start of the day after since + lag + slack), early enough to be served (before the run
 * began, inside the plan window with an hour to spare), and not seen by this run. Only rows the API
 * gave (source 'api') are candidates: an imported row was never promised by the API, so its absence
 * from an answer proves nothing and a sync never removes it.
 *
 * Lower bound: for each root tile, max(1, ceil(n / 500)), n = incidents it returned (seen by this
 * run inside the root circle) — no strategy can do with fewer requests for those tiles.
 */
import { contains, inBox, type Shape } from '../../../src-shared/geo';
import { inTile } from '../geo/tiles';
import type { Db } from '../store/database';
import { boxParams, inBoxSql } from '../store/incidents/boxQuery';
import { createIncidentRepo } from '../store/incidents/incidentRepo';
import { addDays, dayStartUtc } from '../time/localDay';
import type { AreaStore } from '../areas/areaStore';
import { CLOCK_SLACK_MS, DAY, MAX_RECORDS, MAX_REPORT_LAG_MS } from './constants';
import { fairBoundOf, fairIncidents } from './fairBound';
import { tileOfJob, typesOfJob, type JobRow, type JobStore, type RunRow } from './jobStore';

const GONE_REASON = 'no longer returned by the API (complete re-query of its tile)';

export type Finalized = {
  removed: number;
  lowerBound: number;
  /** ceil(N / 500) for the incidents of the area that occurred after the run's since (fairBound.ts). */
  fairLowerBound: number;
  failedJobs: JobRow[];
};

type Candidate = {
  cdid: number;
  lat: number;
  lon: number;
  type: string;
  occurred_utc: number;
  timezone: string;
};

export function finalizeRun(
  db: Db,
  jobs: JobStore,
  areas: AreaStore,
  run: RunRow,
  area: { id: number; shape: Shape },
  now: number,
  windowDays: number,
  deep: boolean,
): Finalized {
  return db
    .transaction((): Finalized => {
      const all = jobs.allJobs(run.id);
      const inCircle = db.prepare<
        Record<string, number>,
        Candidate & { last_seen: number; removed_at: number | null; source: 'api' | 'import' }
      >(
        `SELECT i.cdid, i.lat, i.lon, i.type, i.occurred_utc, i.timezone, i.last_seen, i.removed_at, i.source
       FROM incidents i WHERE ${inBoxSql('i')}`,
      );
      const box = (j: JobRow) =>
        boxParams({
          minLat: j.lat - j.radius,
          maxLat: j.lat + j.radius,
          minLon: j.lon - j.radius,
          maxLon: j.lon + j.radius,
        });
      const servedFrom = now - windowDays * DAY + 3_600_000;
      const gone = new Set<number>();
      for (const j of all) {
        if (j.state !== 'done') continue;
        const tile = tileOfJob(j);
        const types = typesOfJob(j)?.map((t) => t.toLowerCase());
        for (const c of inCircle.all(box(j))) {
          // Only what the API gave can be proven gone by the API: an imported row is never removed by a sync.
          if (c.source !== 'api' || c.removed_at !== null || c.last_seen >= run.started_at) continue;
          // The job's cell: what its circle was asked to cover under either reading (radiusEvidence.ts).
          if (!inBox(tile.cell, c.lat, c.lon) || !contains(area.shape, c.lat, c.lon)) continue;
          if (types && !types.includes(c.type.toLowerCase())) continue;
          const mustBeIn =
            dayStartUtc(addDays(run.since_day, 1), c.timezone) + MAX_REPORT_LAG_MS + CLOCK_SLACK_MS;
          if (c.occurred_utc < mustBeIn || c.occurred_utc < servedFrom || c.occurred_utc > run.started_at)
            continue;
          gone.add(c.cdid);
        }
      }
      const incidents = createIncidentRepo(db);
      for (const cdid of gone) incidents.markRemoved(cdid, now, GONE_REASON);

      let lowerBound = 0;
      for (const j of all) {
        if (j.parent_id !== null) continue;
        const tile = tileOfJob(j);
        const n = inCircle
          .all(box(j))
          .filter((c) => c.last_seen >= run.started_at && inTile(tile, c.lat, c.lon)).length;
        lowerBound += Math.max(1, Math.ceil(n / MAX_RECORDS));
      }
      const fairLowerBound = fairBoundOf(fairIncidents(db, run, area.shape).length);
      const failedJobs = all.filter((j) => j.state === 'failed');
      jobs.addCounts(run.id, { removed: gone.size });
      jobs.setLowerBound(run.id, lowerBound);
      jobs.setFairLowerBound(run.id, fairLowerBound);
      jobs.finishRun(
        run.id,
        'done',
        now,
        failedJobs.length > 0 ? (failedJobs[0]?.error ?? 'incomplete') : null,
      );
      areas.markSynced(area.id, now, { backfill: run.kind === 'backfill' && failedJobs.length === 0, deep });
      return { removed: gone.size, lowerBound, fairLowerBound, failedJobs };
    })
    .immediate();
}
