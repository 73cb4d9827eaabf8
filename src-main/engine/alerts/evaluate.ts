/**
 * The evaluation, called inside the sync's write transaction with what that commit wrote (one
 * page of the API's answer). Alerts, their "fired" ledger rows and their deliveries are rows of
 * the same transaction: a kill before the commit leaves none of them (and none of the incidents
 * that produced them — the page is asked again and they fire then), a kill after leaves all. So a
 * restart, a kill -9 mid-evaluation or a re-sync never loses or duplicates an alert.
 *
 * What fires: incidents from the API (source 'api') this commit inserted (first_seen = the
 * commit's time), not removed, and only
 * - when the syncing area has finished its first backfill (areas.backfilled_at is set): a new
 *   area's whole window of old incidents is not news;
 * - for rules saved before the commit (active_from ≤ now), unpaused;
 * - once per rule and incident (alert_fired's primary key).
 * Amended, removed and restored incidents are noted on the alerts that carry them by triggers
 * (migration 007), wherever that write happens. Imports never reach this function.
 */
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import type { AlertRule } from '../../../src-shared/alerts';
import { SPIKE } from '../../../src-shared/alerts';
import type { Region } from '../../../src-shared/geo';
import { createLogger } from '../log';
import type { Db } from '../store/database';
import { applyFilter, areaRegion, incidentsNear, matchingIncidents, type IncidentRow } from './archive';
import { byTime, crossesThreshold, DAY_MS, mondayWeek, nearRepeats, spikeAt } from './conditions';
import { enqueueDeliveries } from './queue';
import { createRuleStore } from './rules';

export type CommitWritten = {
  areaId: number;
  runId: number | null;
  /** The commit's time: the first_seen of the incidents it inserted. */
  now: number;
  /** The cdids the commit wrote (new, amended and seen again alike). */
  cdids: readonly number[];
};

export type RaisedAlert = {
  alertId: number;
  uid: string;
  ruleId: number;
  areaId: number;
  incidents: number[];
};

/** Test seam: called after the alerts are written, before the caller's transaction commits. */
export const evaluationProbe: { afterWrite: ((raised: RaisedAlert[]) => void) | null } = { afterWrite: null };

type Fired = { cdids: number[]; detail: Record<string, unknown>; spikeWeek: number | null };

const hasRules = (db: Db): boolean =>
  db.prepare('SELECT 1 FROM alert_rules WHERE paused = 0 LIMIT 1').get() !== undefined;

const log = createLogger('alerts');

/**
 * Evaluates the active rules on one commit; returns the alerts written (in the caller's
 * transaction). A defect in a rule's evaluation is logged and its writes undone (a savepoint)
 * rather than failing the sync; SQLite's own failures (disk full, busy) fail the commit as usual.
 */
export function evaluateAlerts(db: Db, w: CommitWritten): RaisedAlert[] {
  if (w.cdids.length === 0 || !hasRules(db)) return [];
  try {
    return db.transaction(() => evaluate(db, w))();
  } catch (error) {
    if (error instanceof Database.SqliteError) throw error;
    log.error('alert evaluation failed; this commit raised no alerts', { error: String(error) });
    return [];
  }
}

function evaluate(db: Db, w: CommitWritten): RaisedAlert[] {
  const area = db
    .prepare<[number], { backfilled_at: number | null }>('SELECT backfilled_at FROM areas WHERE id = ?')
    .get(w.areaId);
  if (!area || area.backfilled_at === null) return [];
  const fresh = db
    .prepare<[string, number], IncidentRow>(
      `SELECT i.cdid, i.type, i.lat, i.lon, i.occurred_utc AS utcMs, i.local_day AS localDay,
         i.local_hour AS localHour, i.local_weekday AS localWeekday
       FROM incidents i WHERE i.cdid IN (SELECT value FROM json_each(?))
         AND i.source = 'api' AND i.removed_at IS NULL AND i.first_seen = ?`,
    )
    .all(JSON.stringify(w.cdids), w.now)
    .sort(byTime);
  if (fresh.length === 0) return [];

  const regions = new Map<number, Region | null>();
  const regionOf = (id: number) => {
    if (!regions.has(id)) regions.set(id, areaRegion(db, id));
    return regions.get(id) ?? null;
  };
  const areaIds = db
    .prepare<[], { id: number }>('SELECT id FROM areas ORDER BY id')
    .all()
    .map((a) => a.id);
  // An all-areas rule files each incident under one area: the syncing one if it holds it, else the first that does.
  const homeArea = new Map<number, number>();
  for (const r of fresh) {
    for (const id of [w.areaId, ...areaIds]) {
      if (regionOf(id)?.contains(r.lat, r.lon)) {
        homeArea.set(r.cdid, id);
        break;
      }
    }
  }

  const firedBefore = db.prepare<[number, string], { cdid: number }>(
    'SELECT cdid FROM alert_fired WHERE rule_id = ? AND cdid IN (SELECT value FROM json_each(?))',
  );
  const raised: RaisedAlert[] = [];
  for (const rule of createRuleStore(db).active()) {
    if (rule.activeFrom > w.now) continue;
    const already = new Set(
      firedBefore.all(rule.id, JSON.stringify(fresh.map((r) => r.cdid))).map((r) => r.cdid),
    );
    const byArea = new Map<number, IncidentRow[]>();
    for (const r of fresh) {
      if (already.has(r.cdid)) continue;
      const id = rule.areaId ?? homeArea.get(r.cdid);
      if (id === undefined) continue;
      if (rule.areaId !== null && !regionOf(rule.areaId)?.contains(r.lat, r.lon)) continue;
      byArea.set(id, [...(byArea.get(id) ?? []), r]);
    }
    for (const [areaId, rows] of byArea) {
      const region = regionOf(areaId);
      const candidates = region ? applyFilter(db, rule.filter, rows) : [];
      if (candidates.length === 0) continue;
      for (const fired of fire(db, rule, region as Region, areaId, candidates)) {
        raised.push(writeAlert(db, rule, areaId, fired, w));
      }
    }
  }
  if (raised.length > 0) evaluationProbe.afterWrite?.(raised);
  return raised;
}

/** The alerts one rule raises for an area's new incidents (already filtered), by its condition. */
function fire(db: Db, rule: AlertRule, region: Region, areaId: number, candidates: IncidentRow[]): Fired[] {
  const c = rule.condition;
  const first = candidates[0] as IncidentRow;
  const last = candidates[candidates.length - 1] as IncidentRow;
  switch (c.kind) {
    case 'any':
      return [{ cdids: candidates.map((r) => r.cdid), detail: {}, spikeWeek: null }];
    case 'threshold': {
      const archive = matchingIncidents(db, region, rule.filter, first.utcMs - c.days * DAY_MS, last.utcMs);
      const hits = candidates.filter((r) => {
        const i = archive.findIndex((a) => a.cdid === r.cdid);
        return i >= 0 && crossesThreshold(archive, i, c.count, c.days);
      });
      return hits.length === 0
        ? []
        : [{ cdids: hits.map((r) => r.cdid), detail: { count: c.count, days: c.days }, spikeWeek: null }];
    }
    case 'spike': {
      const span = (SPIKE.recentDays + SPIKE.baselineDays) * DAY_MS;
      const archive = matchingIncidents(db, region, rule.filter, first.utcMs - span, last.utcMs);
      const taken = new Set(
        db
          .prepare<[number, number], { w: number }>(
            'SELECT spike_week AS w FROM alerts WHERE rule_id = ? AND area_id = ? AND spike_week IS NOT NULL',
          )
          .all(rule.id, areaId)
          .map((r) => r.w),
      );
      const out: Fired[] = [];
      for (const r of candidates) {
        const week = mondayWeek(r.localDay);
        if (taken.has(week)) continue;
        const i = archive.findIndex((a) => a.cdid === r.cdid);
        const s = i >= 0 ? spikeAt(archive, i) : null;
        if (!s?.significant) continue;
        taken.add(week);
        out.push({
          cdids: [r.cdid],
          detail: { recent: s.recent, baseline: s.baseline, p: s.p },
          spikeWeek: week,
        });
      }
      return out;
    }
    case 'nearRepeat': {
      const near: Record<string, number[]> = {};
      const hits = candidates.filter((r) => {
        const pool = incidentsNear(db, r.lat, r.lon, c.miles, r.utcMs - c.days * DAY_MS - 1, r.utcMs);
        const found = nearRepeats(r, pool, c.miles, c.days);
        if (found.length > 0) near[String(r.cdid)] = found.map((p) => p.cdid);
        return found.length > 0;
      });
      return hits.length === 0
        ? []
        : [
            {
              cdids: hits.map((r) => r.cdid),
              detail: { miles: c.miles, days: c.days, near },
              spikeWeek: null,
            },
          ];
    }
  }
}

function writeAlert(db: Db, rule: AlertRule, areaId: number, fired: Fired, w: CommitWritten): RaisedAlert {
  const uid = randomUUID();
  const alertId = Number(
    db
      .prepare(
        `INSERT INTO alerts (uid, rule_id, rule_name, area_id, kind, cdids, detail, spike_week, run_id, fired_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        uid,
        rule.id,
        rule.name,
        areaId,
        rule.condition.kind,
        JSON.stringify(fired.cdids),
        JSON.stringify(fired.detail),
        fired.spikeWeek,
        w.runId,
        w.now,
      ).lastInsertRowid,
  );
  const ledger = db.prepare('INSERT INTO alert_fired (rule_id, cdid, alert_id) VALUES (?, ?, ?)');
  for (const cdid of fired.cdids) ledger.run(rule.id, cdid, alertId);
  enqueueDeliveries(db, alertId, w.now);
  return { alertId, uid, ruleId: rule.id, areaId, incidents: fired.cdids };
}
