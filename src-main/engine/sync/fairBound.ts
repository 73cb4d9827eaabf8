/**
 * The fair lower bound of a sync: ceil(N / 500), N = distinct incidents inside the union of the
 * synced areas that occurred after the run's `since` — no strategy, on any server, can fetch them
 * in fewer requests of at most 500 rows. It means the same whichever way a server reads `since` or
 * measures distance (unlike the per-tile bound in finalize.ts, which depends on the tiling).
 *
 * The API serves report times, not occurred times, so Blotter reads "occurred after since" as
 * "reported on or after the start of the day after since" (in the incident's zone), among the
 * incidents this run saw (last seen at or after its start). The few that occurred on the since day
 * and were reported after midnight are counted too; a server's ground truth (the benchmark's) can
 * only be lower by those. At least 1: any sync asks once.
 */
import { contains, shapeBox, type Shape } from '../../../src-shared/geo';
import type { Db } from '../store/database';
import { boxParams, inBoxSql } from '../store/incidents/boxQuery';
import { addDays, dayStartUtc } from '../time/localDay';
import { MAX_RECORDS } from './constants';

export type FairRun = { started_at: number; since_day: string };

/** cdids of the incidents the run counts towards N, inside `shape`. */
export function fairIncidents(db: Db, run: FairRun, shape: Shape): number[] {
  const rows = db
    .prepare<
      Record<string, number>,
      { cdid: number; lat: number; lon: number; occurred_utc: number; timezone: string }
    >(
      `SELECT i.cdid, i.lat, i.lon, i.occurred_utc, i.timezone FROM incidents i
       WHERE ${inBoxSql('i')} AND i.source = 'api' AND i.removed_at IS NULL AND i.last_seen >= @started`,
    )
    .all({ ...boxParams(shapeBox(shape)), started: run.started_at });
  const after = addDays(run.since_day, 1);
  const from = new Map<string, number>();
  const startIn = (zone: string): number => {
    let t = from.get(zone);
    if (t === undefined) from.set(zone, (t = dayStartUtc(after, zone)));
    return t;
  };
  return rows
    .filter((r) => r.occurred_utc >= startIn(r.timezone) && contains(shape, r.lat, r.lon))
    .map((r) => r.cdid);
}

export const fairBoundOf = (n: number): number => Math.max(1, Math.ceil(n / MAX_RECORDS));

/** The fair lower bound over several runs (the union of their areas). */
export function fairLowerBound(db: Db, runs: readonly { run: FairRun; shape: Shape }[]): number {
  const all = new Set<number>();
  for (const { run, shape } of runs) for (const c of fairIncidents(db, run, shape)) all.add(c);
  return fairBoundOf(all.size);
}
