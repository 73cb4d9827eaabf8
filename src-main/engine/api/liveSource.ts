/**
 * The live surface: `GET /crimes.json` and `GET /crimes/{cdid}.json`, key in the query string.
 * Every parameter the spec defines that helps a mirror is sent (max_records=500, sort_by=date,
 * sort_order, since, types); responses are parsed with zod; anything else — an HTML error page,
 * truncated JSON, a wrong shape — is an ApiError('bad_response') and nothing is written. The key
 * appears only in the URL handed to fetch; every URL we report or store is redacted. Requests go
 * through api/outboundAddress.ts: https (or literal loopback), no redirect to another origin, bodies
 * streamed and capped (search 8 MB, detail 1 MB, after decompression).
 */
import { registerSecret } from '../redact';
import { errorForStatus, type ApiError } from './apiError';
import type { z } from 'zod';
import { badAnswer, createJsonGet } from './jsonGet';
import { BODY_CAPS } from './outboundAddress';
import { DetailBody, SearchBody } from './schemas';
import type { FetchLike, IncidentSource, SearchQuery, SortOrder } from './source';
import { parseLegacyDate, wallAsUtcMs } from '../time/legacyDate';

export type LiveSourceOptions = {
  baseUrl: string;
  key: string;
  fetch: FetchLike;
  /** Per-request timeout. */
  timeoutMs?: number;
  now?: () => number;
  /** Hears each request's outcome: reachable when any HTTP answer came (api/connectivity.ts). */
  onReachability?: (reachable: boolean) => void;
};

const coord = (x: number): string => x.toFixed(6);

export function searchUrl(baseUrl: string, key: string, q: SearchQuery): string {
  const p = new URLSearchParams({ lat: coord(q.lat), lon: coord(q.lon), radius: q.radius.toFixed(6), key });
  if (q.since) p.set('since', q.since);
  p.set('max_records', String(q.maxRecords));
  p.set('sort_by', q.sortBy ?? 'date');
  p.set('sort_order', q.sortOrder);
  if (q.types && q.types.length > 0) p.set('types', q.types.join(','));
  return `${baseUrl.replace(/\/+$/, '')}/crimes.json?${p.toString()}`;
}

export function detailUrl(baseUrl: string, key: string, cdid: number): string {
  return `${baseUrl.replace(/\/+$/, '')}/crimes/${cdid}.json?${new URLSearchParams({ key }).toString()}`;
}

export function createLiveSource(options: LiveSourceOptions): IncidentSource {
  const { baseUrl, key, fetch } = options;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const now = options.now ?? Date.now;
  registerSecret(key);

  const get = createJsonGet({
    fetch,
    key,
    timeoutMs,
    now,
    surface: 'The service',
    jsonp: true,
    ...(options.onReachability ? { onReachability: options.onReachability } : {}),
  });
  const ask = <T>(url: string, what: 'search' | 'detail', schema: z.ZodType<T>, signal?: AbortSignal) =>
    get(url, {
      schema,
      cap: BODY_CAPS[what],
      ...(signal ? { signal } : {}),
      errorFor: (status, shown, messages, retryAfter) =>
        errorForStatus(status, shown, messages, retryAfter, what),
    });

  return {
    name: 'live',
    async search(query, signal) {
      const { data, meta } = await ask(searchUrl(baseUrl, key, query), 'search', SearchBody, signal);
      const astray = (query.sortBy ?? 'date') === 'date' ? outOfOrder(data.crimes, query.sortOrder) : null;
      if (astray)
        throw bad(
          meta.url,
          `incidents out of the date order asked (sort_order=${query.sortOrder}: ${astray})`,
        );
      return { incidents: data.crimes, meta };
    },
    async detail(cdid, signal) {
      const { data, meta } = await ask(detailUrl(baseUrl, key, cdid), 'detail', DetailBody, signal);
      if (data.cdid !== cdid) throw bad(meta.url, `incident ${data.cdid} instead of ${cdid}`);
      return { incident: data, meta };
    },
  };
}

/**
 * How far (wall-clock ms) a row may sit against the asked date order: the rows' dates are local to
 * each incident's zone (a circle near a zone line mixes two, an hour apart) and repeat an hour at a
 * fall-back.
 */
const ORDER_SLACK_MS = 3 * 3_600_000;

/**
 * A page the server did not sort as asked (it ignored sort_order, or sorted by something else): the
 * sync reads a date-sorted page as "everything up to its last report", so such a page would make a
 * tile look complete. The first row against the order by more than the slack, in words; else null.
 */
export function outOfOrder(rows: readonly { date: string }[], order: SortOrder): string | null {
  let edge: number | null = null;
  let edgeText = '';
  for (const r of rows) {
    const wall = parseLegacyDate(r.date);
    if (!wall) continue;
    const t = wallAsUtcMs(wall);
    if (edge !== null && (order === 'ASC' ? t < edge - ORDER_SLACK_MS : t > edge + ORDER_SLACK_MS)) {
      return `${r.date} after ${edgeText}`;
    }
    if (edge === null || (order === 'ASC' ? t > edge : t < edge)) {
      edge = t;
      edgeText = r.date;
    }
  }
  return null;
}

function bad(url: string, what: string): ApiError {
  return badAnswer('The service', url, what);
}
