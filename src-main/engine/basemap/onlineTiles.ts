/**
 * The online tile URL the user configured, fetched by the engine one viewed tile at a time (never
 * ahead of a view), through the local tile cache: fresh tiles come from the cache; stale ones are
 * revalidated (If-None-Match / If-Modified-Since); when the server cannot be reached a stale tile is
 * still shown, so an office that goes offline keeps the streets it has seen. At most two requests
 * run at once, with a User-Agent that names Blotter, as tile usage policies ask.
 *
 * The tile server is an outbound address like any other (api/outboundAddress.ts): https only (plain
 * http on literal loopback), no redirect to another origin, at most 4 MB a tile after decompression.
 * What comes back must be a tile by its own bytes — PNG, JPEG, WebP, or a vector tile (gzip or a
 * raw MVT protobuf); anything else (an HTML page, JSON, a script) is refused, never cached and never
 * handed to the page, and the content type the page gets is the one the bytes prove, not the
 * server's header.
 */
import type { TileBytes, TileCoord } from '../../../src-shared/basemap';
import {
  BODY_CAPS,
  checkOutboundUrl,
  OutboundRefused,
  outboundGet,
  readCapped,
} from '../api/outboundAddress';
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

/** A tile URL for messages: its host and path, never a query (which may hold a token). */
function shown(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}`;
  } catch {
    return 'the tile URL';
  }
}

export function openOnlineTiles(options: OnlineOptions): TileSource {
  try {
    checkOutboundUrl(tileUrl(options.template, { z: 0, x: 0, y: 0 }), 'tiles');
  } catch (error) {
    void options.cache.close();
    if (error instanceof OutboundRefused) throw new BasemapProblem(error.message, 'refused');
    throw error;
  }
  const now = options.now ?? Date.now;
  const limit = limiter(options.maxConcurrent ?? 2);
  const { cache } = options;

  /** The answer's status and headers, and its body read under the tile cap, within one timeout. */
  async function fetchTile(
    url: string,
    headers: Record<string, string>,
  ): Promise<{ response: Response; bytes: Uint8Array | null }> {
    const fetchFn = await options.fetch();
    const signal = AbortSignal.timeout(options.timeoutMs ?? 15_000);
    const response = await outboundGet(
      fetchFn,
      url,
      { headers: { 'User-Agent': options.userAgent, ...headers }, signal },
      'tiles',
    );
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      return { response, bytes: null };
    }
    return { response, bytes: await readCapped(response, BODY_CAPS.tile, 'The map tile') };
  }

  /** Tile bytes as the page may get them: only what is provably a tile, typed by its own bytes. */
  function asTile(bytes: Uint8Array): TileBytes | null {
    const format = sniffFormat(bytes);
    return format === 'unknown' ? null : { bytes, contentType: CONTENT_TYPES[format] };
  }

  async function tile(coord: TileCoord): Promise<TileBytes | null> {
    const url = tileUrl(options.template, coord);
    const hit = cache.get(url);
    const cached = hit && asTile(hit.bytes) ? hit : undefined;
    const fromCache = (): TileBytes | null => (cached ? asTile(cached.bytes) : null);
    const started = now();
    if (cached && started < cached.expiresAt) return fromCache();
    const conditional: Record<string, string> = {};
    if (cached?.etag) conditional['If-None-Match'] = cached.etag;
    if (cached?.lastModified) conditional['If-Modified-Since'] = cached.lastModified;
    let answer: { response: Response; bytes: Uint8Array | null };
    try {
      answer = await limit(() => fetchTile(url, conditional));
    } catch (error) {
      if (error instanceof OutboundRefused) throw new BasemapProblem(error.message, 'refused');
      if (cached) return fromCache();
      throw new BasemapProblem(`The tile server could not be reached (${(error as Error).message}).`);
    }
    const { response } = answer;
    const get = (name: string) => response.headers.get(name);
    if (response.status === 304 && cached) {
      const fresh = freshness(get, started);
      cache.refresh(url, started + fresh.freshForMs, now());
      return fromCache();
    }
    if (response.status === 404 || response.status === 204) return null;
    if (!answer.bytes) {
      if (cached) return fromCache();
      throw new BasemapProblem(`The tile server answered HTTP ${response.status} for ${shown(url)}.`);
    }
    const checked = asTile(answer.bytes);
    if (!checked) {
      throw new BasemapProblem(
        `The tile server sent something that is not a map tile for ${shown(url)} (not PNG, JPEG, WebP or a vector tile); Blotter did not show or keep it.`,
        'refused',
      );
    }
    const fresh = freshness(get, started);
    if (fresh.store) {
      cache.put(
        {
          url,
          bytes: checked.bytes,
          contentType: checked.contentType,
          etag: get('etag'),
          lastModified: get('last-modified'),
          expiresAt: started + fresh.freshForMs,
        },
        now(),
      );
    }
    return checked;
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
