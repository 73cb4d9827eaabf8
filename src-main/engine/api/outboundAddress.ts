/**
 * The one place that decides what the engine may contact and what it accepts back (DESIGN: "Outbound
 * addresses and secrets"). Every request the engine makes — the API, online map tiles, and later
 * basemap sources, webhooks, SMTP and PostgreSQL — goes through `outboundGet` and `readCapped`:
 *
 * - the address must be https, or plain http on literal loopback only (src-shared/outboundRule.ts:
 *   judged on the written address, never through DNS);
 * - redirects are never followed by the fetch (`redirect: 'manual'`): one to the same origin is
 *   followed here (a few at most), one to another origin is refused — so the key in the query
 *   never travels to a host the user did not confirm;
 * - a body is read as a stream and abandoned as soon as it passes its cap, counted after
 *   decompression (the fetch decompresses), so an endless or huge answer costs at most the cap;
 * - what is read is checked by the caller (JSON by zod, tiles by their magic bytes) and never
 *   handed raw to a page.
 */
import { isLiteralLoopback, outboundProblem, type OutboundUse } from '../../../src-shared/outboundRule';
import type { FetchLike } from './source';

const MB = 1024 * 1024;

/** The most each kind of answer may hold, after decompression. */
export const BODY_CAPS = {
  search: 8 * MB,
  detail: 1 * MB,
  tile: 4 * MB,
  pmtilesDirectory: 16 * MB,
} as const;
export type BodyKind = keyof typeof BODY_CAPS;

/** Redirects to the same origin followed before giving up. */
export const MAX_REDIRECTS = 3;

export type RefusalReason = 'address' | 'redirect' | 'too_large';

/** The engine refused to send a request, or to read its answer; `message` is for the user. */
export class OutboundRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundRefused';
  }
}

/** The host of a URL, for messages (never its query or credentials). */
export function hostOf(url: string | URL): string {
  try {
    return (typeof url === 'string' ? new URL(url) : url).host;
  } catch {
    return String(url).slice(0, 80);
  }
}

/** The origin of an address, or null when it is not a URL. */
export function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** The parsed address when the engine may contact it; else OutboundRefused('address'). */
export function checkOutboundUrl(address: string, use: OutboundUse = 'api'): URL {
  const problem = outboundProblem(address, use);
  if (problem) throw new OutboundRefused('address', `Blotter did not contact ${hostOf(address)}: ${problem}`);
  return new URL(address);
}

/**
 * A GET through `fetch` under the rules above: the address checked, redirects followed only within
 * the first address's origin. Resolves with the final response (its body not yet read).
 */
export async function outboundGet(
  fetch: FetchLike,
  address: string,
  init: { signal?: AbortSignal; headers?: Record<string, string> },
  use: OutboundUse = 'api',
): Promise<Response> {
  let url = checkOutboundUrl(address, use);
  const origin = url.origin;
  for (let hop = 0; ; hop++) {
    const response = await fetch(url.toString(), { ...init, method: 'GET', redirect: 'manual' });
    if (!isRedirect(response.status)) return response;
    const location = response.headers.get('location');
    await response.body?.cancel().catch(() => undefined);
    if (!location) return response;
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new OutboundRefused('redirect', `${hostOf(url)} redirected to an address that is not a URL.`);
    }
    if (next.origin !== origin) {
      throw new OutboundRefused(
        'redirect',
        `${hostOf(url)} redirected the request to another address (${hostOf(next)}). Blotter does not follow a redirect to another host, so nothing — not the API key — was sent there. If the service has moved, enter its new address in Settings.`,
      );
    }
    if (hop >= MAX_REDIRECTS) {
      throw new OutboundRefused('redirect', `${hostOf(url)} redirected more than ${MAX_REDIRECTS} times.`);
    }
    url = checkOutboundUrl(next.toString(), use);
  }
}

const isRedirect = (status: number): boolean => status >= 300 && status < 400 && status !== 304;

/** Words for a cap: "8 MB". */
export const capText = (bytes: number): string =>
  bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / 1024)} KB`;

/**
 * The body of `response`, read as a stream and refused (the stream cancelled) once it passes
 * `maxBytes`. The bytes counted are what the fetch hands over: decompressed.
 */
export async function readCapped(response: Response, maxBytes: number, what: string): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
  if (!encoded && Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(what, maxBytes);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(what, maxBytes);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

function tooLarge(what: string, maxBytes: number): OutboundRefused {
  return new OutboundRefused(
    'too_large',
    `${what} was larger than ${capText(maxBytes)}, the most Blotter accepts for it; Blotter stopped reading and kept nothing from it.`,
  );
}

/** A fetch that can send a body (Node's fetch; the host bridge carries GETs only). */
export type PostFetch = (
  url: string,
  init: {
    signal?: AbortSignal;
    headers?: Record<string, string>;
    method: 'POST';
    redirect: 'manual';
    body: string;
  },
) => Promise<Response>;

/**
 * A POST (alert webhooks) under the same rules: the address checked, and no redirect followed at
 * all — a body that may carry data must not travel on to an address the user did not confirm.
 * A 3xx answer is returned as it is, for the caller to report as a failure.
 */
export async function outboundPost(
  fetch: PostFetch,
  address: string,
  init: { signal?: AbortSignal; headers?: Record<string, string>; body: string },
): Promise<Response> {
  const url = checkOutboundUrl(address);
  return fetch(url.toString(), { ...init, method: 'POST', redirect: 'manual' });
}

/**
 * How the engine may talk to an SMTP server at `host` (a host name or IP, as written): TLS with a
 * verified certificate (STARTTLS required, or TLS from the start), except on literal loopback,
 * where a plain connection is allowed (a local relay). Refused: anything that is not a bare host.
 */
export function smtpTransportRule(host: string): { loopback: boolean } {
  const h = host.trim();
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+|[0-9a-f:]+)$/i.test(h) || h.length > 253) {
    throw new OutboundRefused(
      'address',
      `Blotter did not contact the mail server: "${h.slice(0, 80)}" is not a host name.`,
    );
  }
  return { loopback: isLiteralLoopback(h) };
}
