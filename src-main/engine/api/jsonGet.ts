/**
 * One GET of a JSON answer, for both surfaces (liveSource.ts, v1Source.ts): through the outbound
 * module (https or literal loopback, no redirect to another origin, the body streamed and capped),
 * a per-request timeout, reachability reported from any HTTP answer, an answer other than 200 turned
 * into the surface's ApiError from its words (read only up to the small detail cap), and a body that
 * is not JSON (an HTML page, a truncated answer) refused as the service's fault; then the key
 * scrubbed from every string of the answer (engine/keyEcho.ts: a server may echo it back), and the
 * answer read with the surface's schema (another shape refused as the service's fault too). The URL
 * in every error and in the request's meta is redacted. Every answer of either surface passes here,
 * so no source can skip the scrub.
 */
import type { z } from 'zod';
import { logKeyEcho, scrubKey } from '../keyEcho';
import { redact } from '../redact';
import { ApiError, errorForTransport } from './apiError';
import { BODY_CAPS, OutboundRefused, outboundGet, readCapped } from './outboundAddress';
import { ErrorBody } from './schemas';
import type { FetchLike, RequestMeta } from './source';

export type JsonGetOptions = {
  fetch: FetchLike;
  /** The API key: scrubbed from every answer's strings before anything reads them. */
  key: string;
  timeoutMs: number;
  now: () => number;
  onReachability?: (reachable: boolean) => void;
  /** Whose answer it is, in messages: "The service" or "The service's v1 surface". */
  surface: string;
  /** Whether a JSONP-wrapped body is read too (the live surface's `callback`). */
  jsonp?: boolean;
};

export type JsonGetRequest<T> = {
  /** What the answer must be (the surface's zod schema). */
  schema: z.ZodType<T>;
  headers?: Record<string, string>;
  /** The body's cap, bytes after decompression. */
  cap: number;
  signal?: AbortSignal;
  /** The surface's error for an answer other than 200 (the server's words, its Retry-After). */
  errorFor: (
    status: number,
    url: string,
    messages: string[] | undefined,
    retryAfter: string | null,
  ) => ApiError;
};

export type JsonGet = <T>(url: string, r: JsonGetRequest<T>) => Promise<{ data: T; meta: RequestMeta }>;

export function createJsonGet(o: JsonGetOptions): JsonGet {
  const { fetch, timeoutMs, now } = o;
  return async (url, r) => {
    const { signal } = r;
    const shown = redact(url);
    const startedAt = now();
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await outboundGet(fetch, url, {
        signal: combined,
        headers: { Accept: 'application/json', ...r.headers },
      });
    } catch (error) {
      if (error instanceof OutboundRefused) throw refused(error, shown);
      const failure = errorForTransport(error, shown, signal?.aborted === true);
      if (failure.code !== 'cancelled') o.onReachability?.(false);
      throw failure;
    }
    o.onReachability?.(true);
    if (response.status !== 200) {
      // An error body is read only as far as the small cap for a detail: its words, never its bulk.
      const text = await readText(response, BODY_CAPS.detail, shown, signal).catch(() => '');
      // The server's words may echo the key: redacted before any message holds them.
      const messages = ErrorBody.safeParse(tryJson(text, o.jsonp === true)).data?.errors.map(redact);
      throw r.errorFor(response.status, shown, messages, response.headers.get('retry-after'));
    }
    const text = await readText(response, r.cap, shown, signal);
    const json = tryJson(text, o.jsonp === true);
    if (json === undefined) {
      const kind = /^\s*</.test(text) ? 'an HTML page instead of JSON' : 'incomplete or malformed JSON';
      throw badAnswer(o.surface, shown, kind);
    }
    const meta: RequestMeta = {
      url: shown,
      status: response.status,
      startedAt,
      durationMs: now() - startedAt,
    };
    const { value, strings } = scrubKey(json, o.key);
    if (strings > 0) logKeyEcho(strings, shown);
    const parsed = r.schema.safeParse(value);
    if (!parsed.success)
      throw badAnswer(o.surface, shown, `an unexpected shape (${describeIssue(parsed.error)})`);
    return { data: parsed.data, meta };
  };
}

/** The body as text, streamed and stopped at `cap` bytes (after decompression). */
async function readText(
  response: Response,
  cap: number,
  shown: string,
  signal?: AbortSignal,
): Promise<string> {
  try {
    return new TextDecoder().decode(await readCapped(response, cap, `The service's answer`));
  } catch (error) {
    if (error instanceof OutboundRefused) throw refused(error, shown);
    throw errorForTransport(error, shown, signal?.aborted === true);
  }
}

/** A request the outbound rules refused to send, or an answer they refused to read. */
function refused(error: OutboundRefused, url: string): ApiError {
  // An address that may not be contacted is the user's to fix (the base URL); the rest is the answer's fault.
  return new ApiError(error.reason === 'address' ? 'bad_input' : 'bad_response', error.message, {
    url,
    refused: error.reason,
  });
}

/** An answer that is not what the surface sends: nothing of it is kept. */
export function badAnswer(surface: string, url: string, what: string): ApiError {
  return new ApiError('bad_response', `${surface} sent ${what}; nothing was saved from it.`, {
    url,
    status: 200,
  });
}

/** JSON, or (jsonp) JSONP unwrapped; undefined when the text is neither. */
function tryJson(text: string, jsonp: boolean): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const m = jsonp ? /^\s*[A-Za-z_$][\w$.]*\(([\s\S]*)\);?\s*$/.exec(text) : null;
    if (!m) return undefined;
    try {
      return JSON.parse(m[1] ?? '');
    } catch {
      return undefined;
    }
  }
}

/** The first problem zod found in a body, in a few words. */
export function describeIssue(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.map(String).join('.') || 'body'}: ${issue.message}` : 'unknown';
}
