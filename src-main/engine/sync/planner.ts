/**
 * Planning a run for an area: backfill (the whole plan window) when the area has never been
 * complete, else a trailing refresh (a few days; two weeks every few hours or when asked, to catch
 * amendments and removals; longer when the last sync is older). Roots: for a first backfill, as few
 * circles as cover the area — one when it fits the widest radius (BACKFILL_MAX_RADIUS, or the
 * smaller maximum learned for this server), else a grid of them; the first pages then show the
 * density and decide.ts splits only where paging would cost more. For later runs a tiling planned
 * from the local density, so sparse places are asked about in few, large circles.
 */
import type { Shape } from '../../../src-shared/geo';
import { densityTiles, rootTiles, STANDARD_RADIUS, type Tile } from '../geo/tiles';
import type { Db } from '../store/database';
import { boxParams, inBoxSql } from '../store/incidents/boxQuery';
import type { AreaRecord } from '../areas/areaStore';
import {
  BACKFILL_MAX_RADIUS,
  DAY,
  DEEP_REFRESH_DAYS,
  DEEP_REFRESH_EVERY_MS,
  MAX_RECORDS,
  SHALLOW_REFRESH_DAYS,
} from './constants';
import { pagesToEnd } from './costModel';
import type { RunKind } from './jobStore';

export type Depth = 'auto' | 'deep' | 'shallow';
export type SyncLimits = { ratePerMinute: number; windowDays: number };
/** What is known of the server: the largest radius it answers correctly (serverProfile.ts), if learned. */
export type PlanOptions = { maxRadius?: number | null; trustedRadius?: number };

export type RunPlan = {
  kind: RunKind;
  /** Everything reported from here on is what the run fetches. */
  fromUtc: number;
  deep: boolean;
  roots: Tile[];
  /** Expected requests per root. */
  estimates: number[];
  /** Whether the estimates come from incidents already in the local file, or are a bare minimum. */
  basis: 'local-data' | 'minimum';
};

/** Expected fresh rows per full page once overlaps are paid for. */
const ROWS_PER_PAGE = 430;
/** Report days a page fetches again, on average (see constants.ts, SINCE_EXTRA_DAYS). */
const OVERLAP_DAYS = 2.1;

export function planRun(
  db: Db,
  area: AreaRecord,
  now: number,
  limits: SyncLimits,
  depth: Depth,
  opts: PlanOptions = {},
): RunPlan {
  const windowFrom = now - limits.windowDays * DAY;
  const count = densityCounter(db);
  if (area.backfilledAt === null) {
    const roots = backfillRoots(area.shape, opts.maxRadius, opts.trustedRadius);
    const counts = roots.map((t) => count(t, windowFrom));
    const known = counts.some((n) => n > 0);
    return {
      kind: 'backfill',
      fromUtc: windowFrom,
      deep: true,
      roots,
      estimates: counts.map((n) => Math.max(1, Math.ceil(n / ROWS_PER_PAGE))),
      basis: known ? 'local-data' : 'minimum',
    };
  }
  const deep =
    depth === 'deep' ||
    (depth === 'auto' &&
      (area.deepRefreshedAt === null || now - area.deepRefreshedAt >= DEEP_REFRESH_EVERY_MS));
  let days = deep ? DEEP_REFRESH_DAYS : SHALLOW_REFRESH_DAYS;
  if (area.lastSyncedAt !== null)
    days = Math.max(days, (now - area.lastSyncedAt) / DAY + SHALLOW_REFRESH_DAYS);
  const fromUtc = Math.max(windowFrom, now - days * DAY);
  const spanDays = Math.max(1, (now - fromUtc) / DAY);
  const cost = (t: Tile): number => {
    const n = count(t, fromUtc);
    return pagesToEnd(n, n / spanDays, OVERLAP_DAYS);
  };
  const roots = densityTiles(area.shape, cost);
  return { kind: 'refresh', fromUtc, deep, roots, estimates: roots.map(cost), basis: 'local-data' };
}

/**
 * How much wider than the area one backfill circle is asked: its first page then holds rows past the
 * area's edge, which prove the server searched the area (radiusEvidence.ts) without a check request.
 */
export const EVIDENCE_WIDENING = 1.02;

/**
 * A first backfill's roots: as few circles as cover the area, none wider than the server's maximum;
 * one circle wider than the radius the server is trusted with is widened by EVIDENCE_WIDENING.
 */
export function backfillRoots(
  shape: Shape,
  maxRadius?: number | null,
  trustedRadius = STANDARD_RADIUS,
): Tile[] {
  const max = Math.min(BACKFILL_MAX_RADIUS, maxRadius ?? BACKFILL_MAX_RADIUS);
  const roots = rootTiles(shape, max);
  const one = roots[0];
  if (roots.length !== 1 || !one || one.radius <= trustedRadius) return roots;
  const wider = Math.ceil(one.radius * EVIDENCE_WIDENING * 1e6) / 1e6;
  return wider <= max ? [{ ...one, radius: wider }] : roots;
}

/** Incidents in the local file inside a tile's circle, reported from `fromUtc` on (not removed). */
export function densityCounter(db: Db): (t: Tile, fromUtc: number) => number {
  const stmt = db.prepare<Record<string, number>, { n: number }>(
    `SELECT count(*) AS n FROM incidents i
     WHERE ${inBoxSql('i')}
       AND (i.lat - @lat) * (i.lat - @lat) + (i.lon - @lon) * (i.lon - @lon) <= @r2
       AND i.occurred_utc >= @from AND i.removed_at IS NULL`,
  );
  return (t, from) =>
    stmt.get({
      ...boxParams({
        minLat: t.lat - t.radius,
        maxLat: t.lat + t.radius,
        minLon: t.lon - t.radius,
        maxLon: t.lon + t.radius,
      }),
      lat: t.lat,
      lon: t.lon,
      r2: t.radius * t.radius,
      from,
    })?.n ?? 0;
}

/** The standard tiling of an area and, per tile, max(1, ceil(n / 500)): the request lower bound. */
export function lowerBoundOf(roots: readonly Tile[], counts: readonly number[]): number {
  return roots.reduce((sum, _t, i) => sum + Math.max(1, Math.ceil((counts[i] ?? 0) / MAX_RECORDS)), 0);
}

export type { Shape };
