/**
 * The report schedules' rows (migration 016): add, replace, remove, list; which are due; the claim
 * that keeps two processes on one folder from sending the same one; the record of a send.
 */
import { EngineError } from '../errors';
import type { Db } from '../store/database';
import { zoneAt } from '../time/zoneAt';
import {
  ReportScheduleInput,
  type ReportSchedule,
  type ReportScheduleInput as ScheduleInput,
} from '../../../src-shared/reportSchedules';
import type { ReportPaper } from '../../../src-shared/reportRoute';
import { latestDueAt, nextDueAt, type Weekly } from './due';

/** A claim lasts this long: long enough to print and mail, short enough to retry after a crash. */
export const CLAIM_MS = 10 * 60_000;

type Row = {
  id: number;
  area_id: number | null;
  area_name: string | null;
  feature_id: number | null;
  layer_id: number | null;
  layer_name: string | null;
  feature_name: string | null;
  lat: number;
  lon: number;
  weekday: number;
  time: string;
  paper: ReportPaper;
  recipients: string | null;
  created_at: number;
  last_due_at: number | null;
  last_sent_at: number | null;
  last_error: string | null;
  claimed_until: number | null;
};

export type ScheduleRow = Weekly & {
  id: number;
  areaId: number | null;
  /** The target's name: the area's, or "layer: feature". */
  areaName: string;
  feature: { layerId: number; featureId: number; layerName: string; featureName: string } | null;
  paper: ReportPaper;
  to: string[] | null;
  lastDueAt: number | null;
  lastSentAt: number | null;
  lastError: string | null;
  claimedUntil: number | null;
};

// The target is an area (its centre gives the zone) or a layer's feature (its box's centre).
const SELECT = `SELECT s.*, a.name AS area_name, f.layer_id, l.name AS layer_name, f.name AS feature_name,
    coalesce(a.center_lat, (f.min_lat + f.max_lat) / 2) AS lat,
    coalesce(a.center_lon, (f.min_lon + f.max_lon) / 2) AS lon
  FROM report_schedules s
  LEFT JOIN areas a ON a.id = s.area_id
  LEFT JOIN reference_features f ON f.id = s.feature_id
  LEFT JOIN reference_layers l ON l.id = f.layer_id`;

const fromRow = (r: Row): ScheduleRow => ({
  id: r.id,
  areaId: r.area_id,
  areaName: r.area_name ?? `${r.layer_name ?? ''}: ${r.feature_name ?? ''}`,
  feature:
    r.feature_id === null
      ? null
      : {
          layerId: r.layer_id ?? 0,
          featureId: r.feature_id,
          layerName: r.layer_name ?? '',
          featureName: r.feature_name ?? '',
        },
  weekday: r.weekday,
  time: r.time,
  zone: zoneAt(r.lat, r.lon),
  paper: r.paper,
  to: r.recipients === null ? null : (JSON.parse(r.recipients) as string[]),
  lastDueAt: r.last_due_at,
  lastSentAt: r.last_sent_at,
  lastError: r.last_error,
  claimedUntil: r.claimed_until,
});

export const viewOf = (s: ScheduleRow, now: number): ReportSchedule => ({
  id: s.id,
  areaId: s.areaId,
  areaName: s.areaName,
  feature: s.feature,
  weekday: s.weekday,
  time: s.time,
  zone: s.zone,
  paper: s.paper,
  to: s.to,
  nextDueAt: nextDueAt(s, now),
  lastSentAt: s.lastSentAt,
  lastError: s.lastError,
});

/** The schedule's target's centre (its zone), or not_found for an area or feature that is not there. */
function centreOf(
  db: Db,
  s: { areaId?: number | undefined; feature?: { layerId: number; featureId: number } | undefined },
) {
  if (s.feature) {
    const f = db
      .prepare<[number, number], { lat: number; lon: number }>(
        `SELECT (min_lat + max_lat) / 2 AS lat, (min_lon + max_lon) / 2 AS lon
           FROM reference_features WHERE id = ? AND layer_id = ?`,
      )
      .get(s.feature.featureId, s.feature.layerId);
    if (!f)
      throw new EngineError('not_found', `Layer ${s.feature.layerId} has no feature ${s.feature.featureId}.`);
    return f;
  }
  const area = db
    .prepare<[number], { lat: number; lon: number }>(
      'SELECT center_lat AS lat, center_lon AS lon FROM areas WHERE id = ?',
    )
    .get(s.areaId ?? 0);
  if (!area) throw new EngineError('not_found', `There is no area ${s.areaId}.`);
  return area;
}

export function createScheduleStore(db: Db) {
  const get = (id: number): ScheduleRow | undefined => {
    const r = db.prepare<[number], Row>(`${SELECT} WHERE s.id = ?`).get(id);
    return r ? fromRow(r) : undefined;
  };
  const list = (): ScheduleRow[] => db.prepare<[], Row>(`${SELECT} ORDER BY s.id`).all().map(fromRow);

  return {
    get,
    list,
    /** Adds (or, with `id`, replaces) a schedule; it first sends at its next due time after `now`. */
    save(input: ScheduleInput, now: number, id?: number): ScheduleRow {
      const s = ReportScheduleInput.parse(input);
      const at = centreOf(db, s);
      const lastDue = latestDueAt({ weekday: s.weekday, time: s.time, zone: zoneAt(at.lat, at.lon) }, now);
      const recipients = s.to ? JSON.stringify(s.to) : null;
      if (id === undefined) {
        const r = db
          .prepare(
            `INSERT INTO report_schedules (area_id, feature_id, weekday, time, paper, recipients, created_at, last_due_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            s.areaId ?? null,
            s.feature?.featureId ?? null,
            s.weekday,
            s.time,
            s.paper,
            recipients,
            now,
            lastDue,
          );
        return get(Number(r.lastInsertRowid)) as ScheduleRow;
      }
      const changed = db
        .prepare(
          `UPDATE report_schedules SET area_id = ?, feature_id = ?, weekday = ?, time = ?, paper = ?, recipients = ?,
             last_due_at = max(coalesce(last_due_at, 0), ?) WHERE id = ?`,
        )
        .run(
          s.areaId ?? null,
          s.feature?.featureId ?? null,
          s.weekday,
          s.time,
          s.paper,
          recipients,
          lastDue,
          id,
        ).changes;
      if (changed === 0) throw new EngineError('not_found', `There is no report schedule ${id}.`);
      return get(id) as ScheduleRow;
    },
    remove(id: number): boolean {
      return db.prepare('DELETE FROM report_schedules WHERE id = ?').run(id).changes > 0;
    },
    /** The schedules due at `now`, each with the due instant it would answer. */
    due(now: number): { schedule: ScheduleRow; dueAt: number }[] {
      return list()
        .map((schedule) => ({ schedule, dueAt: latestDueAt(schedule, now) }))
        .filter(
          ({ schedule, dueAt }) =>
            (schedule.lastDueAt === null || schedule.lastDueAt < dueAt) &&
            (schedule.claimedUntil === null || schedule.claimedUntil <= now),
        );
    },
    /** Claims a due schedule for CLAIM_MS; false when another holds it or it was sent meanwhile. */
    claim(id: number, dueAt: number, now: number): boolean {
      return (
        db
          .prepare(
            `UPDATE report_schedules SET claimed_until = ?
              WHERE id = ? AND (claimed_until IS NULL OR claimed_until <= ?)
                AND (last_due_at IS NULL OR last_due_at < ?)`,
          )
          .run(now + CLAIM_MS, id, now, dueAt).changes === 1
      );
    },
    sent(id: number, dueAt: number, now: number): void {
      db.prepare(
        `UPDATE report_schedules SET last_due_at = ?, last_sent_at = ?, last_error = NULL, claimed_until = NULL WHERE id = ?`,
      ).run(dueAt, now, id);
    },
    /** A failed send: said on the schedule, the claim released so the next look tries again. */
    failed(id: number, error: string): void {
      db.prepare('UPDATE report_schedules SET last_error = ?, claimed_until = NULL WHERE id = ?').run(
        error,
        id,
      );
    },
  };
}

export type ScheduleStore = ReturnType<typeof createScheduleStore>;
