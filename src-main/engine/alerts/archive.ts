/**
 * What the conditions read from the archive: an area's incidents that a rule's filter keeps, in a
 * time range, sorted by (occurred instant, cdid); and the incidents near a point (near-repeat). The
 * filter means what it means everywhere (src-shared/filters.ts): type names matched
 * case-insensitively (a rule saved before its types were checked may hold "burglary"), local hours
 * [start, end) wrapping past midnight, local weekdays, text through the same safe FTS5 query as the
 * views (query/fts.ts). Removed incidents are never counted. Runs inside the caller's transaction.
 */
import type { AlertFilter } from '../../../src-shared/alerts';
import { hourMask } from '../../../src-shared/filters';
import { looseCircleBox, type Box, type Region } from '../../../src-shared/geo';
import { toFtsQuery } from '../query/fts';
import { shapeOf } from '../query/areaShape';
import type { Db } from '../store/database';
import { boxParams, inBoxSql } from '../store/incidents/boxQuery';
import { byTime, type AlertIncident } from './conditions';

export type IncidentRow = AlertIncident & { localHour: number; localWeekday: number };

const COLUMNS = `i.cdid, i.type, i.lat, i.lon, i.occurred_utc AS utcMs, i.local_day AS localDay,
  i.local_hour AS localHour, i.local_weekday AS localWeekday`;

/** The predicate of a filter's types, hours and weekdays (text is answered by FTS, `textKeeps`). */
export function filterKeeps(filter: AlertFilter): (r: IncidentRow) => boolean {
  const types =
    filter.types && filter.types.length > 0 ? new Set(filter.types.map((t) => t.toLowerCase())) : null;
  const hours = hourMask(filter.hours);
  let weekdays = 0x7f;
  if (filter.weekdays && filter.weekdays.length > 0) {
    weekdays = 0;
    for (const w of filter.weekdays) weekdays |= 1 << w;
  }
  return (r) =>
    (types === null || types.has(r.type.toLowerCase())) &&
    ((hours >>> r.localHour) & 1) === 1 &&
    ((weekdays >>> r.localWeekday) & 1) === 1;
}

/** The cdids among `cdids` whose address or description matches the filter's text; null: no text filter. */
export function textKeeps(db: Db, filter: AlertFilter, cdids: readonly number[]): Set<number> | null {
  const query = filter.text ? toFtsQuery(filter.text) : null;
  if (!query) return null;
  if (cdids.length === 0) return new Set();
  const rows = db
    .prepare<[string, string], { rowid: number }>(
      'SELECT rowid FROM incidents_fts WHERE incidents_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))',
    )
    .all(query, JSON.stringify(cdids));
  return new Set(rows.map((r) => r.rowid));
}

/** The rows of a filter: types, hours, weekdays and text. */
export function applyFilter<T extends IncidentRow>(db: Db, filter: AlertFilter, rows: readonly T[]): T[] {
  const keeps = filterKeeps(filter);
  const kept = rows.filter(keeps);
  const text = textKeeps(
    db,
    filter,
    kept.map((r) => r.cdid),
  );
  return text ? kept.filter((r) => text.has(r.cdid)) : kept;
}

/** The region of a saved area, or null when it no longer exists. */
export function areaRegion(db: Db, areaId: number): Region | null {
  try {
    return shapeOf(db, { areaId });
  } catch {
    return null;
  }
}

function inBox(db: Db, box: Box, fromMs: number, toMs: number): IncidentRow[] {
  return db
    .prepare<Record<string, number>, IncidentRow>(
      `SELECT ${COLUMNS} FROM incidents i
       WHERE ${inBoxSql('i')}
         AND i.removed_at IS NULL AND i.occurred_utc > @fromMs AND i.occurred_utc <= @toMs`,
    )
    .all({ ...boxParams(box), fromMs, toMs });
}

/** Incidents of `region` that `filter` keeps, occurred in (fromMs, toMs], sorted by time then cdid. */
export function matchingIncidents(
  db: Db,
  region: Region,
  filter: AlertFilter,
  fromMs: number,
  toMs: number,
): IncidentRow[] {
  const inside = inBox(db, region.box, fromMs, toMs).filter((r) => region.contains(r.lat, r.lon));
  return applyFilter(db, filter, inside).sort(byTime);
}

/** Incidents within a box around (lat, lon) holding every point `miles` away, occurred in (fromMs, toMs]. */
export function incidentsNear(
  db: Db,
  lat: number,
  lon: number,
  miles: number,
  fromMs: number,
  toMs: number,
): IncidentRow[] {
  return inBox(db, looseCircleBox(lat, lon, miles), fromMs, toMs).sort(byTime);
}
