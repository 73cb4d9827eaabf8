/**
 * The planned v1 surface, as far as the simulator implements it: `/v1/incidents` and `/v1/history`
 * (bearer auth, radius in miles, ISO-8601 times, cursor paging). Other planned endpoints answer 501.
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

export const PLANNED_ONLY = [
  '/v1/score',
  '/v1/trends',
  '/v1/batch',
  '/v1/alerts/subscribe',
  '/v1/executive-risk',
];

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

export function v1Incidents(ctx: HandlerContext): Reply {
  const { rows, cursor } = page(ctx, false);
  return jsonReply(200, { incidents: rows.map((r) => v1Incident(ctx.data.store, r)), next_cursor: cursor });
}

export function v1History(ctx: HandlerContext): Reply {
  if (ctx.key.plan === 'developer') {
    throw new ApiError(403, [
      `/v1/history is not included in the ${ctx.key.planLabel} plan (Pro and Enterprise only)`,
    ]);
  }
  const { rows, cursor } = page(ctx, true);
  return jsonReply(200, {
    incidents: rows.map((r) => v1HistoryIncident(ctx.data.store, r)),
    next_cursor: cursor,
  });
}

export function plannedOnly(path: string): never {
  throw new ApiError(501, [`${path} is a planned v1 endpoint that this simulator does not implement`]);
}
