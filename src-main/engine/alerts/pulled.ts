/**
 * The alerts' hook on an office replica's pull (engine/office/replica.ts): incidents a pull brings
 * that this replica did not hold are evaluated by this desktop's rules exactly as the commit of a
 * local sync would have been — inside the pull's page transaction, once per rule and incident
 * (alert_fired), grouped by the leader's commit (its time is the rows' first_seen).
 *
 * As a local backfill raises nothing, neither does a pulled backfill: a row counts only for an
 * area whose first backfill had finished before the leader's commit that brought it
 * (backfilled_at < first_seen) — the same test evaluate.ts makes at a local commit.
 */
import type { Db } from '../store/database';
import { areaRegion } from './archive';
import { evaluateAlerts, type RaisedAlert } from './evaluate';

export type PulledRow = { cdid: number; first_seen: number; lat: number; lon: number };

export function evaluatePulled(db: Db, fresh: readonly PulledRow[]): RaisedAlert[] {
  if (fresh.length === 0) return [];
  const areas = db
    .prepare<[], { id: number; backfilled_at: number | null }>(
      'SELECT id, backfilled_at FROM areas WHERE backfilled_at IS NOT NULL ORDER BY id',
    )
    .all()
    .map((a) => ({ ...a, region: areaRegion(db, a.id) }));
  if (areas.length === 0) return [];
  const commits = new Map<number, PulledRow[]>();
  for (const r of fresh) commits.set(r.first_seen, [...(commits.get(r.first_seen) ?? []), r]);
  const raised: RaisedAlert[] = [];
  for (const [at, rows] of commits) {
    const home = areas.find(
      (a) => (a.backfilled_at as number) < at && rows.some((r) => a.region?.contains(r.lat, r.lon)),
    );
    if (!home) continue;
    const cdids = rows
      .filter((r) => areas.some((a) => (a.backfilled_at as number) < at && a.region?.contains(r.lat, r.lon)))
      .map((r) => r.cdid);
    raised.push(...evaluateAlerts(db, { areaId: home.id, runId: null, now: at, cdids }));
  }
  return raised;
}
