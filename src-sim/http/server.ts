/**
 * The request pipeline: route (404) → method (405) → key (401) → address (403) → 429 storm and rate
 * limit → injected 5xx / HTML → handler (400, 404, 200) → injected truncation. Latency comes first.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimClock } from '../clock';
import type { Dataset } from '../data/generate';
import { serveBasemap, type BasemapProvider } from './basemapRoute';
import { authenticate, clientAddress, presentedKey, type ResolvedKey } from './access';
import type { LiveReading, SinceBeforeWindow } from './context';
import type { FaultInjector } from './faults';
import { detail, search } from './live';
import type { RateLimiter } from './rateLimit';
import { ApiError, errorReply, htmlReply, send, type Reply } from './respond';
import { matchRoute, type Route } from './routes';
import type { StatsCollector } from './stats';
import { plannedOnly, v1History, v1Incidents, v1Score, v1Trends, type V1Variant } from './v1';

export type ServerDeps = {
  data: Dataset;
  clock: SimClock;
  keys: ReadonlyMap<string, ResolvedKey>;
  limiter: RateLimiter;
  faults: FaultInjector;
  stats: StatsCollector;
  trustedProxies: ReadonlySet<string>;
  sinceBeforeWindow: SinceBeforeWindow;
  live: LiveReading;
  /** Whether /v1 is served; the simulator's setV1 changes it while running. */
  v1: boolean;
  v1Variant?: V1Variant;
  /** The demo profile's basemaps (/basemap/<name>.pmtiles); absent in the test profile. */
  basemap?: BasemapProvider | undefined;
};

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs one request through the pipeline; `caller.key` is set once the key is authenticated. */
function dispatch(
  deps: ServerDeps,
  req: IncomingMessage,
  route: Route,
  query: URLSearchParams,
  caller: { key: string | null },
): Reply {
  if (route.name === 'v1-planned') plannedOnly(route.path);
  if (req.method !== 'GET') {
    throw new ApiError(405, [`method ${req.method} not allowed; use GET`], { Allow: 'GET' });
  }
  const address = clientAddress(req, deps.trustedProxies);
  const key = authenticate(deps.keys, presentedKey(req, query, route.surface), address, route.surface);
  caller.key = key.key;
  const storm = deps.faults.storm();
  if (storm !== null) throw new ApiError(429, ['rate limit exceeded'], { 'Retry-After': String(storm) });
  const slot = deps.limiter.take(key.key, key.ratePerMinute);
  if (!slot.ok) {
    throw new ApiError(429, [`rate limit exceeded: ${key.ratePerMinute} requests per minute for this key`], {
      'Retry-After': String(slot.retryAfter),
    });
  }
  const spoil = deps.faults.spoil();
  if (spoil.kind === 'html') return htmlReply(spoil.status);
  if (spoil.kind === 'error') throw new ApiError(spoil.status, ['internal server error (injected fault)']);
  const ctx = {
    data: deps.data,
    now: deps.clock.nowMs(),
    key,
    query,
    sinceBeforeWindow: deps.sinceBeforeWindow,
    live: deps.live,
  };
  switch (route.name) {
    case 'search':
      return search(ctx);
    case 'detail':
      return detail(ctx, route.cdid);
    case 'v1-incidents':
      return v1Incidents(ctx, deps.v1Variant);
    case 'v1-history':
      return v1History(ctx, deps.v1Variant);
    case 'v1-score':
      return v1Score(ctx);
    case 'v1-trends':
      return v1Trends(ctx);
  }
}

export function createHandler(deps: ServerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void (async () => {
      if (deps.faults.latencyMs > 0) await sleep(deps.faults.latencyMs);
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const path = q < 0 ? url : url.slice(0, q);
      if (deps.basemap && serveBasemap(req, res, path, deps.basemap)) return;
      const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
      const route = matchRoute(path, deps.v1);
      const caller = { key: null as string | null };
      let reply: Reply;
      try {
        if (!route) throw new ApiError(404, [`no such route: ${req.method ?? ''} ${path}`]);
        reply = dispatch(deps, req, route, query, caller);
      } catch (e) {
        if (!(e instanceof ApiError)) console.error('simulator: unexpected error', e);
        reply = errorReply(e instanceof ApiError ? e : new ApiError(500, ['internal simulator error']));
      }
      if (reply.status === 200) {
        const cut = deps.faults.truncateAt(reply.body.length);
        if (cut !== null) reply = { ...reply, body: reply.body.slice(0, cut) };
      }
      deps.stats.record(caller.key, route?.name ?? 'unknown', reply.status);
      send(res, reply);
    })();
  };
}
