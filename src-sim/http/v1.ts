/**
 * The planned v1 surface, as far as the simulator implements it: `/v1/incidents` and `/v1/history`
 * (bearer auth, radius in miles, ISO-8601 times, cursor paging), `/v1/score` and `/v1/trends`.
 * Other planned endpoints answer 501. The simulator serves /v1 only when switched on (option `v1`,
 * or `setV1` while running). A `V1Variant` other than 'faithful' makes v1 disagree with the live
 * surface — ids that are not the cdids, or occurred_at times days after the live report — so a
 * client's check that the two surfaces describe the same incidents can be tested.
 */
import { findRows, orderByTime, type Area, type Filter } from '../data/query';
import { v1HistoryIncident, v1Incident } from '../data/serialize';
import { DAY } from '../data/timeZones';
import type { HandlerContext } from './context';
import { decodeCursor, encodeCursor, queryFingerprint, type CursorPosition } from './cursor';
import { windowStartOf } from './live';
import { Params } from './params';
import { ApiError, jsonReply, type Reply } from './respond';

export const MAX_RADIUS_MI = 50;
export const MAX_LIMIT = 500;
export const DEFAULT_LIMIT = 100;
/** History depth the spec describes: 36 months (the simulator's archive may be shallower). */
export const HISTORY_DAYS = 1096;

/** 'faithful': v1 ids are the cdids, occurred_at the occurrence; 'other-ids': ids offset; 'late-times': occurred_at 3 days late. */
export type V1Variant = 'faithful' | 'other-ids' | 'late-times';
const ID_OFFSET = 50_000_000;
const LATE_MS = 3 * DAY;

/** A served incident as the variant distorts it. */
function distort<T extends { id: string; occurred_at: string }>(i: T, variant: V1Variant | undefined): T {
  if (variant === 'other-ids') return { ...i, id: String(Number(i.id) + ID_OFFSET) };
  if (variant === 'late-times') {
    return { ...i, occurred_at: new Date(Date.parse(i.occurred_at) + LATE_MS).toISOString() };
  }
  return i;
}

export const PLANNED_ONLY = ['/v1/batch', '/v1/alerts/subscribe', '/v1/executive-risk'];

function page(ctx: HandlerContext, history: boolean): { rows: number[]; cursor: string | null } {
  const p = new Params(ctx.query);
  const start = p.instant('start', history);
  const end = p.instant('end', history);
  if (start !== undefined && end !== undefined && start > end) p.fail('start must not be later than end');
  const q = p.done({
    lat: p.number('lat', -90, 90, { required: true }),
    lon: p.number('lon', -180, 180, { required: true }),
    miles: p.number('radius_mi', 0, MAX_RADIUS_MI, { required: true, minExclusive: true }),
    typeMask: p.types('types', true),
    limit: p.integer('limit', 1, MAX_LIMIT, DEFAULT_LIMIT),
  });
  const fingerprint = queryFingerprint([history ? 'h' : 'i', q.lat, q.lon, q.miles, start, end, q.typeMask]);
  const cursorText = p.raw('cursor');
  const after = cursorText === undefined ? null : decodeCursor(cursorText, fingerprint);

  const store = ctx.data.store;
  const windowStart = history ? ctx.now - HISTORY_DAYS * DAY : windowStartOf(ctx);
  const filter: Filter = {
    now: ctx.now,
    windowStart,
    typeMask: q.typeMask,
    occurredFrom: start,
    occurredTo: end,
  };
  const area: Area = { kind: 'miles', lat: q.lat, lon: q.lon, miles: q.miles };
  // Stable order: occurred_at ascending, then cdid (rows ascend with cdid).
  const at = store.occurredAt;
  const sorted = orderByTime(findRows(store, area, filter).rows, at, false);
  const from = after ? firstAfter(sorted, at, store.cdid, after) : 0;
  const rows = sorted.slice(from, from + q.limit);
  const last = rows[rows.length - 1];
  const more = from + q.limit < sorted.length && last !== undefined;
  const cursor = more
    ? encodeCursor({ occurredAt: at[last] ?? 0, cdid: store.cdid[last] ?? 0 }, fingerprint)
    : null;
  return { rows, cursor };
}

/** Index of the first row strictly after the cursor position in (occurred_at, cdid) order. */
function firstAfter(rows: number[], at: Float64Array, cdid: Float64Array, after: CursorPosition): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const r = rows[mid] as number;
    const t = at[r] ?? 0;
    const beyond = t > after.occurredAt || (t === after.occurredAt && (cdid[r] ?? 0) > after.cdid);
    if (beyond) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function v1Incidents(ctx: HandlerContext, variant?: V1Variant): Reply {
  const { rows, cursor } = page(ctx, false);
  return jsonReply(200, {
    incidents: rows.map((r) => distort(v1Incident(ctx.data.store, r), variant)),
    next_cursor: cursor,
  });
}

export function v1History(ctx: HandlerContext, variant?: V1Variant): Reply {
  if (ctx.key.plan === 'developer') {
    throw new ApiError(403, [
      `/v1/history is not included in the ${ctx.key.planLabel} plan (Pro and Enterprise only)`,
    ]);
  }
  const { rows, cursor } = page(ctx, true);
  return jsonReply(200, {
    incidents: rows.map((r) => distort(v1HistoryIncident(ctx.data.store, r), variant)),
    next_cursor: cursor,
  });
}

export function plannedOnly(path: string): never {
  throw new ApiError(501, [`${path} is a planned v1 endpoint that this simulator does not implement`]);
}

const VIOLENT = new Set(['Shooting', 'Assault', 'Robbery']);
const PROPERTY = new Set(['Burglary', 'Theft', 'Arson', 'Vandalism']);
const GRADES: [number, string][] = [
  [80, 'A'],
  [60, 'B'],
  [40, 'C'],
  [20, 'D'],
];

/** Incidents reported in the plan window and occurred in [from, to], inside the circle. */
function rowsIn(ctx: HandlerContext, lat: number, lon: number, miles: number, from: number, to: number) {
  const filter: Filter = {
    now: ctx.now,
    windowStart: windowStartOf(ctx),
    typeMask: 0x1ff,
    occurredFrom: from,
    occurredTo: to,
  };
  return findRows(ctx.data.store, { kind: 'miles', lat, lon, miles }, filter).rows;
}

/**
 * `/v1/score`: 0–100 from the last 30 days inside the circle (violent incidents weigh 3, property
 * 1.5, the rest 1), recomputed daily (updated_at is today's 00:00 UTC), with the breakdown.
 */
export function v1Score(ctx: HandlerContext): Reply {
  const p = new Params(ctx.query);
  const asked = p.number('radius_mi', 0, MAX_RADIUS_MI, { required: false, minExclusive: true });
  const q = p.done({
    lat: p.number('lat', -90, 90, { required: true }),
    lon: p.number('lon', -180, 180, { required: true }),
  });
  const miles = asked ?? 0.5;
  const today = Math.floor(ctx.now / DAY) * DAY;
  const breakdown = { violent: 0, property: 0, quality_of_life: 0 };
  for (const r of rowsIn(ctx, q.lat, q.lon, miles, today - 30 * DAY, today)) {
    const t = ctx.data.store.typeName(r);
    if (VIOLENT.has(t)) breakdown.violent++;
    else if (PROPERTY.has(t)) breakdown.property++;
    else breakdown.quality_of_life++;
  }
  const weight = 3 * breakdown.violent + 1.5 * breakdown.property + breakdown.quality_of_life;
  const perSqMi = weight / (Math.PI * miles * miles);
  const score = Math.max(0, Math.min(100, Math.round(100 - 12 * Math.log2(1 + perSqMi / 10))));
  const grade = GRADES.find(([min]) => score >= min)?.[1] ?? 'F';
  return jsonReply(200, {
    score,
    grade,
    radius_mi: miles,
    updated_at: new Date(today).toISOString(),
    breakdown,
  });
}

const DURATION = /^P(\d{1,3})([DWM])$/;
const UNIT_DAYS = { D: 1, W: 7, M: 30 } as const;
const INTERVAL_DAYS = { day: 1, week: 7, month: 30 } as const;

/** `/v1/trends` (Pro and Enterprise): counts per interval over `window` (P<n>D, P<n>W or P<n>M), ending today. */
export function v1Trends(ctx: HandlerContext): Reply {
  if (ctx.key.plan === 'developer') {
    throw new ApiError(403, [
      `/v1/trends is not included in the ${ctx.key.planLabel} plan (Pro and Enterprise only)`,
    ]);
  }
  const p = new Params(ctx.query);
  const windowText = p.matching('window', DURATION, 8, 'an ISO-8601 duration such as P12W');
  const q = p.done({
    lat: p.number('lat', -90, 90, { required: true }),
    lon: p.number('lon', -180, 180, { required: true }),
    miles: p.number('radius_mi', 0, MAX_RADIUS_MI, { required: true, minExclusive: true }),
    interval: p.choice('interval', ['day', 'week', 'month'], 'week'),
  });
  const m = DURATION.exec(windowText ?? 'P12W');
  const windowDays = Number(m?.[1] ?? 12) * UNIT_DAYS[(m?.[2] ?? 'W') as keyof typeof UNIT_DAYS];
  const step = INTERVAL_DAYS[q.interval as keyof typeof INTERVAL_DAYS];
  const end = Math.floor(ctx.now / DAY) * DAY + DAY;
  const count = Math.max(1, Math.min(400, Math.ceil(windowDays / step)));
  const buckets = Array.from({ length: count }, (_, k) => {
    const from = end - (count - k) * step * DAY;
    return { start: from, end: from + step * DAY, count: 0, by_type: {} as Record<string, number> };
  });
  const first = buckets[0]?.start ?? end;
  for (const r of rowsIn(ctx, q.lat, q.lon, q.miles, first, end - 1)) {
    const at = ctx.data.store.occurredAt[r] ?? 0;
    const b = buckets[Math.floor((at - first) / (step * DAY))];
    if (!b) continue;
    const type = ctx.data.store.typeName(r).toLowerCase();
    b.count++;
    b.by_type[type] = (b.by_type[type] ?? 0) + 1;
  }
  const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
  return jsonReply(200, {
    interval: q.interval,
    buckets: buckets.map((b) => ({
      start: day(b.start),
      end: day(b.end - DAY),
      count: b.count,
      by_type: b.by_type,
    })),
  });
}
