/**
 * The live surface: `GET /crimes.json` and `GET /crimes/{cdid}.json`, key in the query string.
 * Every parameter the spec defines that helps a mirror is sent (max_records=500, sort_by=date,
 * sort_order, since, types); responses are parsed with zod; anything else — an HTML error page,
 * truncated JSON, a wrong shape — is an ApiError('bad_response') and nothing is written. The key
 * appears only in the URL handed to fetch; every URL we report or store is redacted. Requests go
 * through api/outboundAddress.ts: https (or literal loopback), no redirect to another origin, bodies
 * streamed and capped (search 8 MB, detail 1 MB, after decompression).
 */
import { redact, registerSecret } from '../redact';
import { ApiError, errorForStatus, errorForTransport } from './apiError';
import { BODY_CAPS, OutboundRefused, outboundGet, readCapped } from './outboundAddress';
import { DetailBody, ErrorBody, SearchBody } from './schemas';
import type { FetchLike, IncidentSource, RequestMeta, SearchQuery } from './source';

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
  if (q.types && q.types.length > 0) p.set('types', q.types.map((t) => t.toLowerCase()).join(','));
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

  async function get(
    url: string,
    what: 'search' | 'detail',
    signal?: AbortSignal,
  ): Promise<{ body: unknown; meta: RequestMeta }> {
    const shown = redact(url);
    const startedAt = now();
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await outboundGet(fetch, url, { signal: combined, headers: { Accept: 'application/json' } });
    } catch (error) {
      if (error instanceof OutboundRefused) throw refused(error, shown);
      const failure = errorForTransport(error, shown, signal?.aborted === true);
      if (failure.code !== 'cancelled') options.onReachability?.(false);
      throw failure;
    }
    options.onReachability?.(true);
    const meta = (): RequestMeta => ({
      url: shown,
      status: response.status,
      startedAt,
      durationMs: now() - startedAt,
    });
    if (response.status !== 200) {
      // An error body is read only as far as the small cap for a detail: its words, never its bulk.
      const text = await readText(response, BODY_CAPS.detail, shown, signal).catch(() => '');
      const messages = ErrorBody.safeParse(tryJson(text)).data?.errors;
      throw errorForStatus(response.status, shown, messages, response.headers.get('retry-after'), what);
    }
    const text = await readText(response, BODY_CAPS[what], shown, signal);
    const json = tryJson(text);
    if (json === undefined) {
      const kind = /^\s*</.test(text) ? 'an HTML page instead of JSON' : 'incomplete or malformed JSON';
      throw bad(shown, kind);
    }
    return { body: json, meta: meta() };
  }

  /** The body as text, streamed and stopped at `cap` bytes (after decompression). */
  async function readText(
    response: Response,
    cap: number,
    shown: string,
    signal?: AbortSignal,
  ): Promise<string> {
    try {
      const bytes = await readCapped(response, cap, `The service's answer`);
      return new TextDecoder().decode(bytes);
    } catch (error) {
      if (error instanceof OutboundRefused) throw refused(error, shown);
      throw errorForTransport(error, shown, signal?.aborted === true);
    }
  }

  return {
    name: 'live',
    async search(query, signal) {
      const { body, meta } = await get(searchUrl(baseUrl, key, query), 'search', signal);
      const parsed = SearchBody.safeParse(body);
      if (!parsed.success) throw bad(meta.url, `an unexpected shape (${describe(parsed.error)})`);
      return { incidents: parsed.data.crimes, meta };
    },
    async detail(cdid, signal) {
      const { body, meta } = await get(detailUrl(baseUrl, key, cdid), 'detail', signal);
      const parsed = DetailBody.safeParse(body);
      if (!parsed.success) throw bad(meta.url, `an unexpected shape (${describe(parsed.error)})`);
      if (parsed.data.cdid !== cdid) throw bad(meta.url, `incident ${parsed.data.cdid} instead of ${cdid}`);
      return { incident: parsed.data, meta };
    },
  };
}

/** A request the outbound rules refused to send, or an answer they refused to read. */
function refused(error: OutboundRefused, url: string): ApiError {
  // An address that may not be contacted is the user's to fix (the base URL); the rest is the answer's fault.
  return new ApiError(error.reason === 'address' ? 'bad_input' : 'bad_response', error.message, {
    url,
    refused: error.reason,
  });
}

function bad(url: string, what: string): ApiError {
  return new ApiError('bad_response', `The service sent ${what}; nothing was saved from it.`, {
    url,
    status: 200,
  });
}

/** JSON, or JSONP unwrapped, or undefined when the text is neither. */
function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const m = /^\s*[A-Za-z_$][\w$.]*\(([\s\S]*)\);?\s*$/.exec(text);
    if (!m) return undefined;
    try {
      return JSON.parse(m[1] ?? '');
    } catch {
      return undefined;
    }
  }
}

function describe(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.map(String).join('.') || 'body'}: ${issue.message}` : 'unknown';
}
