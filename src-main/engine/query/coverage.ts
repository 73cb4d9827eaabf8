/**
 * Which local days the archive holds completely: per area from the sync's coverage ledger (see
 * ledger.ts); for several areas the weakest status wins; the last `provisionalDays` days up to
 * today are provisional at best, later days missing.
 *
 * Without any ledger (e.g. imported data), the basis is the archive itself: the days between the
 * first and the last incident held count as complete, and the result says so (`basis: 'archive'`).
 */
import { dayNumber, dayString, type AreaFilter } from '../../../src-shared/filters';
import type { CoverageResult, CoverageStatus } from '../../../src-shared/incidentQueries';
import type { Db } from '../store/database';
import type { Box } from '../../../src-shared/geo';
import { areaDayStatuses, COMPLETE, MISSING, PROVISIONAL, SATURATED } from './ledger';
import { GONE, type Snapshot } from './snapshot';

export { COMPLETE, MISSING, PROVISIONAL, SATURATED };
const NAMES: CoverageStatus[] = ['missing', 'provisional', 'saturated', 'complete'];

export type DayStatuses = { basis: 'ledger' | 'archive'; from: number; statuses: Uint8Array };

/** The areas whose ledgers speak for a filter's area: the saved area, or those a drawn shape overlaps. */
export function scopeAreas(db: Db, area: AreaFilter | undefined, box: Box | null): number[] {
  if (area && 'areaId' in area) return [area.areaId];
  const ledgered = db
    .prepare(
      `SELECT id, min_lat, max_lat, min_lon, max_lon FROM areas a
        WHERE EXISTS (SELECT 1 FROM coverage c WHERE c.area_id = a.id) ORDER BY id`,
    )
    .all() as { id: number; min_lat: number; max_lat: number; min_lon: number; max_lon: number }[];
  return ledgered
    .filter(
      (a) =>
        !box ||
        (a.min_lat <= box.maxLat &&
          a.max_lat >= box.minLat &&
          a.min_lon <= box.maxLon &&
          a.max_lon >= box.minLon),
    )
    .map((a) => a.id);
}

/** The span of live incidents held, as day numbers; null when there are none. */
export function archiveSpan(snapshot: Snapshot): { first: number; last: number } | null {
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < snapshot.size; i++) {
    if (snapshot.state[i] === GONE) continue;
    const d = snapshot.day[i] as number;
    if (d < first) first = d;
    if (d > last) last = d;
  }
  return first <= last ? { first, last } : null;
}

export type CoverageContext = { db: Db; snapshot: Snapshot; today: number; provisionalDays: number };

/** Day statuses over [from, to] for the given areas (empty: the archive basis). */
export function dayStatuses(ctx: CoverageContext, areaIds: number[], from: number, to: number): DayStatuses {
  const len = Math.max(0, to - from + 1);
  let statuses: Uint8Array;
  let basis: DayStatuses['basis'] = 'ledger';
  if (areaIds.length > 0) {
    statuses = new Uint8Array(len).fill(COMPLETE);
    for (const id of areaIds) {
      const area = areaDayStatuses(ctx.db, id, from, to);
      for (let k = 0; k < len; k++)
        if ((area[k] as number) < (statuses[k] as number)) statuses[k] = area[k] as number;
    }
  } else {
    basis = 'archive';
    statuses = new Uint8Array(len);
    const span = archiveSpan(ctx.snapshot);
    if (span)
      for (let d = Math.max(from, span.first); d <= Math.min(to, span.last); d++)
        statuses[d - from] = COMPLETE;
  }
  for (let k = 0; k < len; k++) {
    const d = from + k;
    if (d > ctx.today) statuses[k] = MISSING;
    else if (d > ctx.today - ctx.provisionalDays && (statuses[k] as number) >= SATURATED)
      statuses[k] = PROVISIONAL;
  }
  return { basis, from, statuses };
}

/** The earliest day the ledger of these areas (or the archive) knows, or null. */
export function earliestDay(ctx: CoverageContext, areaIds: number[]): number | null {
  if (areaIds.length === 0) return archiveSpan(ctx.snapshot)?.first ?? null;
  const day = ctx.db
    .prepare(`SELECT min(day) FROM coverage WHERE area_id IN (SELECT value FROM json_each(?))`)
    .pluck()
    .get(JSON.stringify(areaIds)) as string | null;
  const span = archiveSpan(ctx.snapshot);
  const fromLedger = day ? dayNumber(day) : Infinity;
  const first = Math.min(fromLedger, span?.first ?? Infinity);
  return Number.isFinite(first) ? first : null;
}

/** The coverage band: runs of equal status, with totals. */
export function coverageBand(
  ctx: CoverageContext,
  areaIds: number[],
  from: number | null,
  to: number,
): CoverageResult {
  const start = from ?? earliestDay(ctx, areaIds);
  if (start === null || start > to) {
    return {
      basis: areaIds.length ? 'ledger' : 'archive',
      from: null,
      to: null,
      runs: [],
      totals: { complete: 0, saturated: 0, provisional: 0, missing: 0 },
    };
  }
  const { basis, statuses } = dayStatuses(ctx, areaIds, start, to);
  const runs: CoverageResult['runs'] = [];
  const totals = { complete: 0, saturated: 0, provisional: 0, missing: 0 };
  let runStart = 0;
  for (let k = 0; k <= statuses.length; k++) {
    if (k < statuses.length) totals[NAMES[statuses[k] as number] as CoverageStatus]++;
    if (k === statuses.length || (k > runStart && statuses[k] !== statuses[runStart])) {
      if (k > runStart) {
        runs.push({
          from: dayString(start + runStart),
          to: dayString(start + k - 1),
          status: NAMES[statuses[runStart] as number] as CoverageStatus,
        });
      }
      runStart = k;
    }
  }
  return { basis, from: dayString(start), to: dayString(to), runs, totals };
}
