/**
 * A fetch across the engine worker's message port. The engine runs in a worker thread, where a
 * host's own fetch (Electron's net.fetch, which follows the system proxy and certificate store) is
 * not available. With a bridge, the worker's API client calls `fetch` as usual; the request travels
 * to the host as `{fetch: {id, url, method, headers}}`, the host performs it with its HostFetch and
 * answers `{fetchReply: {id, response | error}}`, and the worker builds a standard Response from it.
 * Aborts travel as `{fetchAbort: {id}}`; a request the host leaves unanswered times out.
 *
 * The API key travels in the URL's query (the live API requires it there): nothing here logs a URL,
 * only its origin and path, and error text crossing the port is redacted.
 */
import { createLogger, redact, type Logger } from '../log';
import { BODY_CAPS } from './outboundAddress';
import type { FetchLike } from './source';

/**
 * The most of a body a host reads for the worker: one byte over the largest cap, so the worker's
 * own cap (api/outboundAddress.ts readCapped) still sees an over-long answer as too large.
 */
export const HOST_BODY_LIMIT = Math.max(...Object.values(BODY_CAPS)) + 1;

export type HostFetchRequest = {
  url: string;
  method: string;
  headers: Record<string, string>;
  /** 'manual': the host must not follow redirects (the worker decides, api/outboundAddress.ts). */
  redirect?: 'manual';
  /** Read at most this many bytes of the body (stream it; stop once past it). Default HOST_BODY_LIMIT. */
  maxBytes?: number;
  /** Aborted when the worker gives up on the request (its caller aborted, or it timed out). */
  signal?: AbortSignal;
};

export type HostFetchResponse = {
  status: number;
  statusText: string;
  headers: [string, string][];
  /** Text, or bytes for binary bodies (map tiles); a Response's text() decodes bytes as UTF-8. */
  body: string | Uint8Array;
};

/** What a host hands startEngine to perform the engine's HTTP requests (Electron: net.fetch). */
export type HostFetch = (request: HostFetchRequest) => Promise<HostFetchResponse>;

export type BridgedError = { name: string; message: string; code?: string };

/** Worker → host. */
export type FetchRequestMessage = {
  fetch: { id: number; url: string; method: string; headers: Record<string, string>; redirect?: 'manual' };
};
export type FetchAbortMessage = { fetchAbort: { id: number } };
/** Host → worker. */
export type FetchReply = { id: number; response: HostFetchResponse } | { id: number; error: BridgedError };
export type FetchReplyMessage = { fetchReply: FetchReply };

/** The safety net for a host that never answers (callers normally pass their own timeout signal). */
export const BRIDGE_TIMEOUT_MS = 120_000;

/** A URL as logs may show it: origin and path, never the query (which holds the key). */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(unreadable URL)';
  }
}

/** An error as it may cross the port: name, redacted message, and the network code when there is one. */
export function bridgedError(error: unknown): BridgedError {
  const e = error instanceof Error ? error : new Error(String(error));
  const cause = (e as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code = (e as { code?: unknown }).code ?? cause?.code;
  return {
    name: e.name,
    message: redact(e.message || String(cause?.message ?? 'the request failed')),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

/** The worker's half: a FetchLike whose requests go to the host. */
export function createWorkerFetch(
  post: (message: FetchRequestMessage | FetchAbortMessage) => void,
  options: { timeoutMs?: number } = {},
) {
  const timeoutMs = options.timeoutMs ?? BRIDGE_TIMEOUT_MS;
  const pending = new Map<number, { resolve: (r: Response) => void; reject: (e: unknown) => void }>();
  let nextId = 0;
  let closed: Error | null = null;

  const fetch: FetchLike = (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const signal = init.signal;
      if (closed) return reject(closed);
      if (signal?.aborted) return reject(signal.reason);
      const id = ++nextId;
      const settle = (): void => {
        pending.delete(id);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const giveUp = (reason: unknown): void => {
        settle();
        post({ fetchAbort: { id } });
        reject(reason);
      };
      const onAbort = (): void => giveUp(signal?.reason);
      const timer = setTimeout(
        () => giveUp(new DOMException('The host did not answer the request in time.', 'TimeoutError')),
        timeoutMs,
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      pending.set(id, {
        resolve: (r) => (settle(), resolve(r)),
        reject: (e) => (settle(), reject(e)),
      });
      post({
        fetch: {
          id,
          url,
          method: init.method ?? 'GET',
          headers: { ...init.headers },
          ...(init.redirect ? { redirect: init.redirect } : {}),
        },
      });
    });

  return {
    fetch,
    /** Settles the request a reply answers (replies to abandoned requests are ignored). */
    receive(reply: FetchReply): void {
      const waiter = pending.get(reply.id);
      if (!waiter) return;
      if ('error' in reply) return waiter.reject(rebuiltError(reply.error));
      try {
        waiter.resolve(toResponse(reply.response));
      } catch (error) {
        waiter.reject(error);
      }
    },
    /** Fails every request in flight (the engine is closing). */
    close(): void {
      closed = new Error('The engine is shutting down.');
      for (const waiter of [...pending.values()]) waiter.reject(closed);
    },
  };
}

export type WorkerFetch = ReturnType<typeof createWorkerFetch>;

/** The host's half: performs each request with the host's fetch and answers on the port. */
export function serveHostFetch(
  hostFetch: HostFetch,
  post: (message: FetchReplyMessage) => void,
  log: Logger = createLogger('fetch-bridge'),
) {
  const inFlight = new Map<number, AbortController>();
  const reply = (message: FetchReply): void => {
    try {
      post({ fetchReply: message });
    } catch (error) {
      log.warn('could not answer a bridged request', { error: bridgedError(error).message });
    }
  };

  return {
    request({ id, url, method, headers, redirect }: FetchRequestMessage['fetch']): void {
      const controller = new AbortController();
      inFlight.set(id, controller);
      void (async () => {
        try {
          const response = await hostFetch({
            url,
            method,
            headers,
            ...(redirect ? { redirect } : {}),
            maxBytes: HOST_BODY_LIMIT,
            signal: controller.signal,
          });
          if (!controller.signal.aborted) reply({ id, response });
        } catch (error) {
          if (controller.signal.aborted) return; // the worker stopped waiting for it
          const e = bridgedError(error);
          log.info('a bridged request failed', { request: `${method} ${shownUrl(url)}`, error: e.message });
          reply({ id, error: e });
        } finally {
          inFlight.delete(id);
        }
      })();
    },
    abort(id: number): void {
      inFlight.get(id)?.abort();
      inFlight.delete(id);
    },
    /** Aborts every request in flight (the worker stopped). */
    close(): void {
      for (const controller of inFlight.values()) controller.abort();
      inFlight.clear();
    },
  };
}

export type HostFetchServer = ReturnType<typeof serveHostFetch>;

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

function toResponse(r: HostFetchResponse): Response {
  if (!Number.isInteger(r.status) || r.status < 200 || r.status > 599) {
    throw new TypeError(`The host answered with an impossible HTTP status (${r.status}).`);
  }
  const headers = new Headers();
  for (const [name, value] of r.headers) {
    try {
      headers.append(name, value);
    } catch {
      // A header a Response cannot hold (an HTTP/2 pseudo-header, say): nothing the client reads.
    }
  }
  const body = NULL_BODY_STATUSES.has(r.status) ? null : r.body;
  return new Response(body as BodyInit | null, { status: r.status, statusText: r.statusText, headers });
}

/** A transport failure as the API client expects one (errorForTransport reads name and cause.code). */
function rebuiltError(e: BridgedError): Error {
  const error = new TypeError(redact(e.message), { cause: { code: e.code, message: redact(e.message) } });
  if (e.name === 'AbortError' || e.name === 'TimeoutError') error.name = e.name;
  return error;
}
