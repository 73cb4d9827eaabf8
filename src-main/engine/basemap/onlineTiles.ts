/**
 * The online tile URL the user configured, fetched by the engine one viewed tile at a time (never
 * ahead of a view), through the local tile cache: fresh tiles come from the cache; stale ones are
 * revalidated (If-None-Match / If-Modified-Since); when the server cannot be reached a stale tile is
 * still shown, so an office that goes offline keeps the streets it has seen. At most two requests
 * run at once, with a User-Agent that names Blotter, as tile usage policies ask.
 */
import type { TileBytes, TileCoord } from '../../../src-shared/basemap';
import type { FetchLike } from '../api/source';
import { freshness } from './cachePolicy';
import type { TileCache } from './tileCache';
import { CONTENT_TYPES, sniffFormat } from './tileFormat';
import { BasemapProblem, type SourceInfo, type TileSource } from './tileSource';

export type OnlineOptions = {
  template: string;
  attribution: string;
  cache: TileCache;
  fetch: () => Promise<FetchLike>;
  userAgent: string;
  now?: () => number;
  timeoutMs?: number;
  maxConcurrent?: number;
};

const SUBDOMAINS = ['a', 'b', 'c'];

/** The URL of one tile: {z}/{x}/{y}, {s} (a subdomain picked by the tile), {r} (empty: no retina). */
export function tileUrl(template: string, { z, x, y }: TileCoord): string {
  return template
    .replaceAll('{z}', String(z))
    .replaceAll('{x}', String(x))
    .replaceAll('{y}', String(y))
    .replaceAll('{s}', SUBDOMAINS[(x + y) % SUBDOMAINS.length] as string)
    .replaceAll('{r}', '');
}

function limiter(max: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await work();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

export function openOnlineTiles(options: OnlineOptions): TileSource {
  const now = options.now ?? Date.now;
  const limit = limiter(options.maxConcurrent ?? 2);
  const { cache } = options;

  async function fetchTile(url: string, headers: Record<string, string>): Promise<Response> {
    const fetchFn = await options.fetch();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 15_000);
    try {
      return await fetchFn(url, {
        headers: { 'User-Agent': options.userAgent, ...headers },
        signal: controller.signal,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  async function tile(coord: TileCoord): Promise<TileBytes | null> {
    const url = tileUrl(options.template, coord);
    const cached = cache.get(url);
    const started = now();
    if (cached && started < cached.expiresAt) return { bytes: cached.bytes, contentType: cached.contentType };
    const conditional: Record<string, string> = {};
    if (cached?.etag) conditional['If-None-Match'] = cached.etag;
    if (cached?.lastModified) conditional['If-Modified-Since'] = cached.lastModified;
    let response: Response;
    try {
      response = await limit(() => fetchTile(url, conditional));
    } catch (error) {
      if (cached) return { bytes: cached.bytes, contentType: cached.contentType };
      throw new BasemapProblem(`The tile server could not be reached (${(error as Error).message}).`);
    }
    const get = (name: string) => response.headers.get(name);
    if (response.status === 304 && cached) {
      const fresh = freshness(get, started);
      cache.refresh(url, started + fresh.freshForMs, now());
      return { bytes: cached.bytes, contentType: cached.contentType };
    }
    if (response.status === 404 || response.status === 204) return null;
    if (!response.ok) {
      if (cached) return { bytes: cached.bytes, contentType: cached.contentType };
      throw new BasemapProblem(`The tile server answered HTTP ${response.status} for ${url}.`);
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    const contentType = get('content-type')?.split(';')[0]?.trim() || CONTENT_TYPES[sniffFormat(bytes)];
    const fresh = freshness(get, started);
    if (fresh.store) {
      cache.put(
        {
          url,
          bytes,
          contentType,
          etag: get('etag'),
          lastModified: get('last-modified'),
          expiresAt: started + fresh.freshForMs,
        },
        now(),
      );
    }
    return { bytes, contentType };
  }

  return {
    info: async (): Promise<SourceInfo> => ({
      name: null,
      attribution: options.attribution,
      format: null,
      minZoom: 0,
      maxZoom: 19,
      bounds: null,
    }),
    tile,
    stats: () => cache.stats(),
    close: async () => cache.close(),
  };
}
