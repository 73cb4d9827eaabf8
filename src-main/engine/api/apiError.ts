/**
 * Every way a request to the live surface can fail, as one typed error whose message tells a user
 * what to do. `code` is one of the contract's ErrorCodes; `retryable` says whether the sync should
 * try again (with backoff, or after Retry-After for 429).
 */
import type { ErrorCode } from '../../../src-shared/contract';
import { redact } from '../redact';

export type ApiErrorCode = Extract<
  ErrorCode,
  | 'unauthorized'
  | 'ip_not_allowed'
  | 'rate_limited'
  | 'server_error'
  | 'bad_response'
  | 'offline'
  | 'bad_input'
  | 'not_found'
  | 'cancelled'
>;

export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly details: {
      status?: number;
      /** The request, key redacted. */
      url?: string;
      /** From Retry-After, for 429. */
      retryAfterSeconds?: number;
      /** The service's own words (its `errors` array), when it sent any. */
      serverMessages?: string[];
      /** No answer within the request's timeout (a transport failure). */
      timedOut?: boolean;
      /** The outbound rules refused the address, a redirect, or an over-large body (api/outboundAddress.ts). */
      refused?: 'address' | 'redirect' | 'too_large';
    } = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get retryable(): boolean {
    if (this.details.refused) return false; // the same request would be refused the same way
    return (
      this.code === 'rate_limited' ||
      this.code === 'server_error' ||
      this.code === 'bad_response' ||
      this.code === 'offline'
    );
  }

  /** Errors no retry can fix: the sync stops and says what to do. */
  get fatal(): boolean {
    return this.code === 'unauthorized' || this.code === 'ip_not_allowed';
  }
}

const said = (messages: string[] | undefined): string =>
  messages && messages.length > 0 ? ` The service said: “${messages.join('; ').slice(0, 300)}”.` : '';

/** The typed error for an HTTP status other than 200. */
export function errorForStatus(
  status: number,
  url: string,
  serverMessages: string[] | undefined,
  retryAfterHeader: string | null,
  what: 'search' | 'detail',
): ApiError {
  // The server's words may echo the key: redacted before an error message or its details hold them.
  serverMessages = serverMessages?.map(redact);
  const base = { status, url, serverMessages };
  if (status === 401) {
    return new ApiError(
      'unauthorized',
      'The service refused the API key (401: invalid or missing). Re-enter the key in Settings › API key, or set BLOTTER_API_KEY for the command line.',
      base,
    );
  }
  if (status === 403) {
    return new ApiError(
      'ip_not_allowed',
      "The service refused this computer's public IP address (403): it is not on the key's static-IP allowlist. Ask the API operator to register your office's static IP for this key, or run Blotter from a registered address.",
      base,
    );
  }
  if (status === 429) {
    const seconds = parseRetryAfter(retryAfterHeader) ?? 60;
    return new ApiError(
      'rate_limited',
      `The service asked us to slow down (429); waiting ${seconds} s as it asked.`,
      {
        ...base,
        retryAfterSeconds: seconds,
      },
    );
  }
  if (status === 404) {
    return what === 'detail'
      ? new ApiError(
          'not_found',
          'The service no longer has this incident (it was removed or has left the plan window).',
          base,
        )
      : new ApiError(
          'bad_input',
          `The service has no search at this address (404). Check the base URL in Settings.${said(serverMessages)}`,
          base,
        );
  }
  if (status >= 500) {
    return new ApiError(
      'server_error',
      `The service had a problem (HTTP ${status}).${said(serverMessages)}`,
      base,
    );
  }
  if (status === 400) {
    return new ApiError(
      'bad_input',
      `The service rejected the request as invalid (400).${said(serverMessages)}`,
      base,
    );
  }
  return new ApiError(
    'bad_response',
    `The service answered with an unexpected HTTP ${status}.${said(serverMessages)}`,
    base,
  );
}

/**
 * Retry-After as whole seconds: delta-seconds or an HTTP date; null when absent or unreadable. A
 * decimal number of seconds (`1.5`, not HTTP's form but a server's plausible one) is rounded up —
 * Date.parse would read it as a day in 2001 and the wait as none.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+(\.\d*)?$/.test(text)) return Math.min(3600, Math.ceil(Number(text)));
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.min(3600, Math.max(0, Math.ceil((at - now) / 1000)));
}

/** A transport failure (no HTTP answer): offline, timed out, or cancelled by us. */
export function errorForTransport(error: unknown, url: string, cancelled: boolean): ApiError {
  if (cancelled) return new ApiError('cancelled', 'The request was cancelled.', { url });
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const name = (error as Error)?.name;
  const detail = cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
  if (name === 'TimeoutError') {
    return new ApiError('offline', 'The service did not answer in time.', { url, timedOut: true });
  }
  return new ApiError(
    'offline',
    `Cannot reach the service (${String(detail).slice(0, 120)}); check the network connection.`,
    { url },
  );
}
