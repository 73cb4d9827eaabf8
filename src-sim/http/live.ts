/** The live surface: `GET /crimes.json` and `GET /crimes/{cdid}.json`. */
import { findRows, orderByDistance, orderByTime, type Area } from '../data/query';
import { liveDetail, liveIncident } from '../data/serialize';
import { DAY } from '../data/timeZones';
import type { HandlerContext } from './context';
import { Params } from './params';
import { ApiError, jsonReply, jsonpReply, type Reply } from './respond';

/** Largest accepted `radius` by default, degrees (the spec names no maximum; larger values are a 400). */
export const MAX_RADIUS_DEG = 1;
/** Miles in one degree of arc on the sphere the simulator measures with (R = 3958.8 mi). */
const MILES_PER_DEGREE_OF_ARC = (3958.8 * Math.PI) / 180;
export const MAX_RECORDS = 500;
export const DEFAULT_RECORDS = 50;
/** A JSONP callback: a dotted path of JavaScript identifiers (letters, digits, _ and $), bounded. */
const CALLBACK = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;
const MAX_CALLBACK = 128;

export const windowStartOf = (ctx: HandlerContext): number => ctx.now - ctx.key.windowDays * DAY;

export function search(ctx: HandlerContext): Reply {
  const p = new Params(ctx.query);
  const since = p.day('since');
  const callback = p.matching(
    'callback',
    CALLBACK,
    MAX_CALLBACK,
    'a JavaScript function name (letters, digits, _, $ and dots)',
  );
  const q = p.done({
    lat: p.number('lat', -90, 90, { required: true }),
    lon: p.number('lon', -180, 180, { required: true }),
    radius: p.number('radius', 0, ctx.live.maxRadiusDeg, { required: true, minExclusive: true }),
    maxRecords: p.integer('max_records', 1, MAX_RECORDS, DEFAULT_RECORDS),
    sortBy: p.choice('sort_by', ['date', 'distance'], 'date'),
    sortOrder: p.choice('sort_order', ['ASC', 'DESC'], 'DESC'),
    typeMask: p.types('types', false),
  });

  const windowStart = windowStartOf(ctx);
  const stale = since !== undefined && since < Math.floor(windowStart / DAY);
  let crimes: ReturnType<typeof liveIncident>[] = [];
  if (!(stale && ctx.sinceBeforeWindow === 'empty')) {
    const live = ctx.live;
    const radius = live.radiusClampDeg === null ? q.radius : Math.min(q.radius, live.radiusClampDeg);
    const area: Area =
      live.distance === 'degrees'
        ? { kind: 'degrees', lat: q.lat, lon: q.lon, radius }
        : { kind: 'miles', lat: q.lat, lon: q.lon, miles: radius * MILES_PER_DEGREE_OF_ARC };
    const found = findRows(ctx.data.store, area, {
      now: ctx.now,
      windowStart,
      afterDay: since === undefined ? undefined : live.since === 'inclusive' ? since - 1 : since,
      typeMask: q.typeMask,
    });
    const descending = q.sortOrder === 'DESC';
    const rows =
      q.sortBy === 'date'
        ? orderByTime(found.rows, ctx.data.store.reportedAt, descending).slice(0, q.maxRecords)
        : orderByDistance(found, descending, q.maxRecords);
    crimes = rows.map((r) => liveIncident(ctx.data.store, r));
  }
  const payload = { crimes };
  return callback !== undefined ? jsonpReply(callback, payload) : jsonReply(200, payload);
}

export function detail(ctx: HandlerContext, cdidText: string): Reply {
  if (!/^\d{1,15}$/.test(cdidText) || Number(cdidText) === 0) {
    throw new ApiError(400, ['cdid must be a positive integer']);
  }
  const cdid = Number(cdidText);
  const store = ctx.data.store;
  const row = store.rowOf(cdid);
  if (row < 0 || !store.isLive(row, ctx.now, windowStartOf(ctx))) {
    throw new ApiError(404, [`cdid ${cdid} not found`]);
  }
  return jsonReply(200, liveDetail(store, row));
}
