/**
 * One cheap, unambiguous request that proves the whole chain — base URL, network, proxy, key,
 * static IP — and, when it fails, exactly which link broke, in plain words.
 *
 * The request is a search for at most one incident within 0.01° of a fixed point: a 200 with a
 * `crimes` array can only come from the API (a detail request for a made-up cdid could not tell
 * "no such incident" from "no such API": both are 404). It goes through the live API client and
 * the key's rate limiter (shared with the sync), so it costs one request of the plan's rate.
 */
import { createHash } from 'node:crypto';
import { ApiError } from './apiError';
import { createLiveSource } from './liveSource';
import { proxyFromEnv } from './nodeFetch';
import type { FetchLike } from './source';
import { EngineError } from '../errors';
import { limiterFor, PRIORITY_DETAIL } from './rateLimiter';

export type ConnectionCheck = {
  baseUrl: string;
  key: string;
  ratePerMinute: number;
  fetch: FetchLike;
  env?: Readonly<Record<string, string | undefined>>;
  /** How long the request may take. */
  timeoutMs?: number;
  /** How long to wait for a slot of the key's rate (a running sync may be using all of it). */
  slotWaitMs?: number;
  now?: () => number;
};

export type ConnectionOk = { incidents: number; message: string; host: string; ms: number };

/** Chicago's Loop: a place the API covers, so the answer usually carries an incident. */
export const TEST_POINT = { lat: 41.8781, lon: -87.6298, radius: 0.01 } as const;

const TIMEOUT_MS = 15_000;
const SLOT_WAIT_MS = 10_000;

/** Runs the test request; resolves with what worked, or throws an EngineError that says what is wrong. */
export async function checkConnection(o: ConnectionCheck): Promise<ConnectionOk> {
  const now = o.now ?? Date.now;
  const env = o.env ?? process.env;
  const host = hostOf(o.baseUrl);
  const timeoutMs = o.timeoutMs ?? TIMEOUT_MS;
  const seen: Seen = { error: undefined, contentType: null };
  const fetch: FetchLike = async (url, init) => {
    try {
      const response = await o.fetch(url, init);
      seen.contentType = response.headers.get('content-type');
      return response;
    } catch (error) {
      seen.error = error;
      throw error;
    }
  };
  const source = createLiveSource({ baseUrl: o.baseUrl, key: o.key, fetch, timeoutMs, now });
  const digest = createHash('sha256').update(o.key).digest('hex').slice(0, 16);
  const limiter = limiterFor(digest, o.ratePerMinute);

  let permit;
  try {
    permit = await limiter.acquire(PRIORITY_DETAIL, AbortSignal.timeout(o.slotWaitMs ?? SLOT_WAIT_MS));
  } catch {
    throw new EngineError(
      'rate_limited',
      `Blotter is already using this key's whole rate (${o.ratePerMinute} requests a minute), probably for a sync. Try the test again in a minute.`,
    );
  }
  const started = now();
  try {
    const { incidents } = await source.search({
      lat: TEST_POINT.lat,
      lon: TEST_POINT.lon,
      radius: TEST_POINT.radius,
      maxRecords: 1,
      sortOrder: 'DESC',
    });
    const ms = Math.round(now() - started);
    return {
      incidents: incidents.length,
      host,
      ms,
      message: `Connected to ${host}: the API accepted the key from this computer and answered a test search in ${ms} ms.`,
    };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === 'rate_limited') limiter.retryAfter(error.details.retryAfterSeconds ?? 60);
    throw explain(error, seen, { host, proxy: proxyFromEnv(env), timeoutMs, baseUrl: o.baseUrl });
  } finally {
    permit.done();
  }
}

type Seen = { error: unknown; contentType: string | null };
type Where = { host: string; proxy: string | undefined; timeoutMs: number; baseUrl: string };

export const UNAUTHORIZED = 'The API rejected this key. Check it and enter it again.';
export const IP_NOT_ALLOWED =
  "This computer's public IP address is not on the key's allowlist. Keys work only from the static IPs registered with the API operator: ask them to register your office's static IP.";

/** The typed error for a failed test request, in words that name the broken link. */
export function explain(error: ApiError, seen: Seen, where: Where): EngineError {
  const { host } = where;
  const status = error.details.status;
  if (error.details.refused === 'address') {
    return new EngineError('bad_input', error.message, [{ path: 'baseUrl', message: error.message }]);
  }
  if (error.details.refused) return new EngineError('bad_response', error.message);
  const said = error.details.serverMessages?.length
    ? ` It said: “${error.details.serverMessages.join('; ').slice(0, 200)}”.`
    : '';
  switch (error.code) {
    case 'unauthorized':
      return new EngineError('unauthorized', `${UNAUTHORIZED} (HTTP 401 from ${host}.)`);
    case 'ip_not_allowed':
      return new EngineError('ip_not_allowed', `${IP_NOT_ALLOWED} (HTTP 403 from ${host}.)`);
    case 'rate_limited':
      return new EngineError(
        'rate_limited',
        `The API says this key has used up its rate limit (HTTP 429); it asked Blotter to wait ${error.details.retryAfterSeconds ?? 60} s. Test again after that.`,
      );
    case 'server_error':
      return new EngineError(
        'server_error',
        `${host} answered with a server error (HTTP ${status}).${said} Try again later; if it persists, tell the API operator.`,
      );
    case 'not_found':
    case 'bad_input':
      if (status === 404) {
        return new EngineError(
          'bad_input',
          `${host} has no API at this address (HTTP 404 for /crimes.json). Check the base URL: it is the part before /crimes.json, such as https://api.example.com.`,
          [{ path: 'baseUrl', message: 'No API at this address (404).' }],
        );
      }
      return new EngineError(
        'bad_response',
        `${host} refused a standard search as invalid (HTTP ${status ?? 400}).${said} The base URL may point at something other than the Crime Incident Data API.`,
      );
    case 'bad_response': {
      const what = /html/i.test(seen.contentType ?? '')
        ? 'an HTML page'
        : status && status !== 200
          ? `an unexpected HTTP ${status}`
          : 'data in another format';
      return new EngineError(
        'bad_response',
        `${host} answered with something that isn't the API (${what}). Check the base URL. A proxy or network sign-in page can also answer like this.`,
      );
    }
    case 'cancelled':
    case 'offline':
      return new EngineError('offline', unreachable(seen.error, where));
  }
}

/** Why no HTTP answer came: DNS, refused, timeout, TLS, or the proxy in between. */
export function unreachable(raw: unknown, where: Where): string {
  const { host, proxy, timeoutMs } = where;
  const cause = (raw as { cause?: { code?: unknown; message?: string; address?: string; port?: number } })
    ?.cause;
  const name = (raw as Error | undefined)?.name;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  const text = `${(raw as Error | undefined)?.message ?? ''} ${cause?.message ?? ''}`;
  const netCode = /net::(ERR_[A-Z_]+)/.exec(text)?.[1] ?? ''; // Electron's net.fetch

  if (name === 'TimeoutError' || netCode === 'ERR_TIMED_OUT') {
    return `${host} did not answer within ${Math.round(timeoutMs / 1000)} s. Check the base URL and this computer's network${proxy ? ` and proxy (${proxyName(proxy)})` : ''}.`;
  }
  if (proxy && viaProxy(proxy, cause, text, where.baseUrl)) {
    return `Could not reach the proxy ${proxyName(proxy)} set in HTTPS_PROXY/HTTP_PROXY (${code || text.trim()}). Check the proxy address and that it is running, or unset HTTPS_PROXY if this network needs no proxy.`;
  }
  if (/^ERR_(PROXY|TUNNEL)_/.test(netCode)) {
    return `Could not reach ${host} through this computer's proxy (${netCode}). Check the proxy settings of the system.`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || netCode === 'ERR_NAME_NOT_RESOLVED') {
    return `Could not reach ${host}: the name does not resolve (DNS lookup failed). Check the spelling of the base URL and this computer's network connection.`;
  }
  if (code === 'ECONNREFUSED' || netCode === 'ERR_CONNECTION_REFUSED') {
    return `Could not reach ${host}: nothing accepts connections there (connection refused). Check the base URL, including its port.`;
  }
  if (['EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN'].includes(code) || netCode === 'ERR_INTERNET_DISCONNECTED') {
    return `Could not reach ${host}: this computer has no route to it. Is the network connected?`;
  }
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || netCode === 'ERR_CONNECTION_TIMED_OUT') {
    return `Could not reach ${host}: the connection timed out. A firewall may be blocking it.`;
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || netCode === 'ERR_CONNECTION_RESET') {
    return `Could not reach ${host}: the connection was cut off. A firewall or proxy may be blocking it.`;
  }
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(`${code} ${netCode}`)) {
    return `Could not verify ${host}'s certificate (${code || netCode}), so Blotter did not send the key. If your network inspects HTTPS traffic, ask IT for its certificate.`;
  }
  if (/bad port/i.test(text)) {
    return `Could not reach ${host}: its port is one that web requests may not use. Check the base URL's port.`;
  }
  return `Could not reach ${host} (${(code || netCode || text.trim() || 'no answer').slice(0, 120)}). Check the base URL and this computer's network.`;
}

/** Whether a transport failure happened on the way to the proxy rather than to the API. */
function viaProxy(
  proxy: string,
  cause: { address?: string; port?: number; message?: string } | undefined,
  text: string,
  baseUrl: string,
): boolean {
  let p: URL;
  let target: URL;
  try {
    p = new URL(proxy);
    target = new URL(baseUrl);
  } catch {
    return false;
  }
  const proxyPort = Number(p.port || (p.protocol === 'https:' ? 443 : 80));
  const proxyHost = p.hostname.replace(/^\[|\]$/g, '');
  if (/proxy/i.test(text)) return true;
  if (proxyHost !== target.hostname && text.includes(proxyHost)) return true;
  if (cause?.port !== undefined && cause.port === proxyPort) {
    const targetPort = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
    return cause.port !== targetPort || cause.address === proxyHost;
  }
  // undici gives up with "Request was cancelled" when the proxy refuses the tunnel (e.g. 407).
  return /request was cancelled/i.test(text);
}

function proxyName(proxy: string): string {
  try {
    const u = new URL(proxy);
    return u.host; // never the user:password part
  } catch {
    return 'the configured proxy';
  }
}

export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}
