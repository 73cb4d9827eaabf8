/**
 * Every request of a sync goes through here: a slot from the key's rate limiter, the source call,
 * one request-log entry per attempt (URL redacted), and the retry policy — wait Retry-After on 429
 * (the limiter pauses everyone), capped backoff with jitter on 5xx, network faults and unreadable
 * bodies, a typed failure after too many attempts. 401/403/400 fail at once.
 */
import { ApiError } from '../api/apiError';
import type { DetailResult, IncidentSource, SearchQuery, SearchResult } from '../api/source';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff';
import { realClock, sleep, type Clock } from './clock';
import { PRIORITY_DETAIL, PRIORITY_SEARCH, type RateLimiter } from './rateLimiter';

export type LoggedRequest = {
  url: string;
  status: number | null;
  at: number;
  durationMs: number;
  records: number | null;
  error: string | null;
};

export type RequesterEvents = {
  /** An attempt failed and will be retried at `retryAt` (epoch ms); `offline` when no answer came. */
  onRetry?(error: ApiError, retryAt: number): void;
  /** Every attempt that failed, for the request log (successful ones are logged with their data). */
  onFailedAttempt?(entry: LoggedRequest): void;
};

export type RequesterOptions = {
  source: IncidentSource;
  limiter: RateLimiter;
  backoff?: BackoffPolicy;
  clock?: Clock;
  random?: () => number;
  /** Consecutive 429s tolerated before giving up (a storm that never ends). */
  max429?: number;
  events?: RequesterEvents;
};

export class Requester {
  requests = 0;
  rateLimited = 0;
  /** Who hears about retries and failed attempts (the run in progress sets these). */
  events: RequesterEvents;
  private readonly backoff: BackoffPolicy;
  private readonly clock: Clock;

  constructor(private readonly o: RequesterOptions) {
    this.backoff = o.backoff ?? DEFAULT_BACKOFF;
    this.clock = o.clock ?? realClock;
    this.events = o.events ?? {};
  }

  get limiter(): RateLimiter {
    return this.o.limiter;
  }

  search(query: SearchQuery, signal?: AbortSignal): Promise<SearchResult> {
    return this.attempt(PRIORITY_SEARCH, signal, (s) => this.o.source.search(query, s));
  }

  detail(cdid: number, signal?: AbortSignal, priority = PRIORITY_DETAIL): Promise<DetailResult> {
    return this.attempt(priority, signal, (s) => this.o.source.detail(cdid, s));
  }

  private async attempt<T>(
    priority: number,
    signal: AbortSignal | undefined,
    call: (s?: AbortSignal) => Promise<T>,
  ): Promise<T> {
    let failures = 0;
    let storms = 0;
    for (;;) {
      const permit = await this.o.limiter.acquire(priority, signal);
      const at = this.clock.now();
      this.requests++;
      try {
        const result = await call(signal);
        permit.done();
        return result;
      } catch (error) {
        permit.done();
        const e = error instanceof ApiError ? error : new ApiError('offline', String(error));
        if (e.code !== 'cancelled') {
          this.events.onFailedAttempt?.({
            url: e.details.url ?? '',
            status: e.details.status ?? null,
            at,
            durationMs: this.clock.now() - at,
            records: null,
            error: e.message,
          });
        }
        if (e.code === 'rate_limited') {
          this.rateLimited++;
          if (++storms > (this.o.max429 ?? 30)) throw giveUp(e, storms);
          const seconds = e.details.retryAfterSeconds ?? 60;
          this.o.limiter.retryAfter(seconds);
          this.events.onRetry?.(e, this.clock.now() + seconds * 1000);
          continue;
        }
        if (!e.retryable) throw e;
        if (++failures >= this.backoff.maxAttempts) throw giveUp(e, failures);
        const wait = backoffDelay(failures - 1, this.backoff, this.o.random);
        this.events.onRetry?.(e, this.clock.now() + wait);
        await sleep(this.clock, wait, signal).catch(() => {
          throw new ApiError('cancelled', 'The sync was stopped.');
        });
      }
    }
  }
}

function giveUp(e: ApiError, attempts: number): ApiError {
  return new ApiError(e.code, `${e.message} Gave up after ${attempts} attempts.`, e.details);
}
