/**
 * The v1 surface (spec: planned): `GET /v1/incidents`, `/v1/history`, `/v1/score`, `/v1/trends`,
 * with the key in an `Authorization: Bearer` header (never in the URL), the radius in miles
 * (`radius_mi`), ISO-8601 `start`/`end`, cursor pages (`limit` 500). Each answer is parsed with zod
 * and turned into the app's form: the v1 `id` as the cdid (the sync uses v1 only after it has seen
 * the two agree: sync/surfaceVerify.ts), the type mapped back (`raw_type` kept: v1Types.ts), `date`
 * as the legacy local text of `occurred_at` in the incident's zone, `url` as the link.
 *
 * It is the live source plus pages: `search` and `detail` are the live client's (v1 has no
 * description endpoint), so one IncidentSource serves a run on either surface. Requests go through
 * api/outboundAddress.ts like the live ones (https or literal loopback, no redirect to another
 * origin, bodies capped at the search cap).
 */
import { registerSecret } from '../redact';
import type { z } from 'zod';
import { formatLegacyDate } from '../time/legacyDate';
import { offsetAt } from '../time/wallToInstant';
import { zoneAt } from '../time/zoneAt';
import { ApiError, errorForStatus } from './apiError';
import { createJsonGet } from './jsonGet';
import { BODY_CAPS } from './outboundAddress';
import type { ApiIncident } from './schemas';
import type { LiveSourceOptions } from './liveSource';
import type { IncidentSource, PageQuery, PageResult, RequestMeta } from './source';
import { fromV1Type, toV1Type } from './v1Types';
import { V1Page, V1Score, V1Trends, type V1Incident } from './v1Schemas';

/** The live source's options: the same address, key, fetch and timeout. */
export type V1SourceOptions = LiveSourceOptions;

export type ScoreQuery = { lat: number; lon: number; radiusMi?: number };
export type TrendsQuery = {
  lat: number;
  lon: number;
  radiusMi: number;
  interval?: 'day' | 'week' | 'month';
  /** ISO-8601 duration, e.g. P12W. */
  window?: string;
};

export type V1Extras = {
  score(q: ScoreQuery, signal?: AbortSignal): Promise<{ score: V1Score; meta: RequestMeta }>;
  trends(q: TrendsQuery, signal?: AbortSignal): Promise<{ trends: V1Trends; meta: RequestMeta }>;
};

const coord = (x: number): string => x.toFixed(6);
const base = (baseUrl: string): string => `${baseUrl.replace(/\/+$/, '')}/v1`;

/** The URL of one cursor page (no key: v1 sends it in a header). */
export function pageUrl(baseUrl: string, q: PageQuery): string {
  const p = new URLSearchParams({ lat: coord(q.lat), lon: coord(q.lon), radius_mi: q.radiusMi.toFixed(4) });
  if (q.start) p.set('start', q.start);
  if (q.end) p.set('end', q.end);
  if (q.types && q.types.length > 0) p.set('types', q.types.map(toV1Type).join(','));
  if (!q.history) p.set('limit', String(q.limit));
  if (q.cursor) p.set('cursor', q.cursor);
  return `${base(baseUrl)}/${q.history ? 'history' : 'incidents'}?${p.toString()}`;
}

/** A v1 incident in the app's form, and its occurred_at instant. */
export function appIncident(i: V1Incident): { incident: ApiIncident; occurredUtc: number } {
  const occurredUtc = Date.parse(i.occurred_at);
  const zone = zoneAt(i.lat, i.lon);
  const wall = new Date(occurredUtc + offsetAt(zone, occurredUtc) * 60_000);
  const year = wall.getUTCFullYear();
  const legacy = formatLegacyDate({
    year,
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
  });
  // The legacy text's two-digit year reads as 20YY: a year of another century keeps its four digits
  // (read back the same), so the stored instant is occurred_at's, never moved by a century.
  const date =
    year >= 2000 && year <= 2099
      ? legacy
      : legacy.replace(/^(\d\d\/\d\d\/)\d\d/, `$1${String(year).padStart(4, '0')}`);
  return {
    incident: {
      type: fromV1Type(i.type, i.raw_type),
      address: i.address ?? '',
      lat: i.lat,
      lon: i.lon,
      cdid: Number(i.id),
      link: i.url ?? '',
      date,
    },
    occurredUtc,
  };
}

/** The live source with the v1 surface's pages, score and trends added. */
export function withV1(live: IncidentSource, options: V1SourceOptions): IncidentSource & V1Extras {
  const { baseUrl, key, fetch } = options;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const now = options.now ?? Date.now;
  registerSecret(key);

  const getJson = createJsonGet({
    fetch,
    key,
    timeoutMs,
    now,
    surface: "The service's v1 surface",
    ...(options.onReachability ? { onReachability: options.onReachability } : {}),
  });
  const get = <T>(url: string, endpoint: string, schema: z.ZodType<T>, signal?: AbortSignal) =>
    getJson(url, {
      schema,
      headers: { Authorization: `Bearer ${key}` },
      cap: BODY_CAPS.search,
      ...(signal ? { signal } : {}),
      errorFor: (status, shown, messages, retryAfter) =>
        v1ErrorFor(status, shown, messages, retryAfter, endpoint),
    });

  // Every answer (live and v1) is read with the key scrubbed from its strings: api/jsonGet.ts.
  return {
    name: 'v1',
    search: (q, s) => live.search(q, s),
    detail: (c, s) => live.detail(c, s),
    async page(q, signal): Promise<PageResult> {
      const endpoint = q.history ? '/v1/history' : '/v1/incidents';
      const { data, meta } = await get(pageUrl(baseUrl, q), endpoint, V1Page, signal);
      const rows = data.incidents.map(appIncident);
      return {
        incidents: rows.map((r) => r.incident),
        occurredUtc: rows.map((r) => r.occurredUtc),
        nextCursor: data.next_cursor,
        meta,
      };
    },
    async score(q, signal) {
      const p = new URLSearchParams({ lat: coord(q.lat), lon: coord(q.lon) });
      if (q.radiusMi !== undefined) p.set('radius_mi', q.radiusMi.toFixed(4));
      const { data, meta } = await get(
        `${base(baseUrl)}/score?${p.toString()}`,
        '/v1/score',
        V1Score,
        signal,
      );
      return { score: data, meta };
    },
    async trends(q, signal) {
      const p = new URLSearchParams({
        lat: coord(q.lat),
        lon: coord(q.lon),
        radius_mi: q.radiusMi.toFixed(4),
      });
      if (q.interval) p.set('interval', q.interval);
      if (q.window) p.set('window', q.window);
      const { data, meta } = await get(
        `${base(baseUrl)}/trends?${p.toString()}`,
        '/v1/trends',
        V1Trends,
        signal,
      );
      return { trends: data, meta };
    },
  };
}

/** Whether a source has the v1 surface's extras (score and trends). */
export const hasV1Extras = (s: IncidentSource): s is IncidentSource & V1Extras =>
  typeof (s as Partial<V1Extras>).score === 'function';

/**
 * A v1 answer other than 200. 404: this address has no such v1 endpoint (yet) — not the base URL's
 * fault, since the live surface may answer. 403 on a plan-gated endpoint (history, trends): the
 * plan does not include it. 501: planned but not served. The rest as on the live surface.
 */
export function v1ErrorFor(
  status: number,
  url: string,
  messages: string[] | undefined,
  retryAfter: string | null,
  endpoint: string,
): ApiError {
  const said =
    messages && messages.length > 0 ? ` The service said: “${messages.join('; ').slice(0, 300)}”.` : '';
  const details = { status, url, ...(messages ? { serverMessages: messages } : {}) };
  if (status === 404 || status === 501) {
    return new ApiError(
      'not_found',
      `The service does not answer ${endpoint} (HTTP ${status}): its v1 surface is not live here.${said}`,
      details,
    );
  }
  if (status === 403 && endpoint !== '/v1/incidents' && endpoint !== '/v1/score') {
    return new ApiError(
      'bad_input',
      `The service refused ${endpoint} (403): the plan does not include it (Pro and Enterprise only).${said}`,
      details,
    );
  }
  return errorForStatus(status, url, messages, retryAfter, 'search');
}
