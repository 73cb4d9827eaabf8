/**
 * Every request of a sync goes through here: a slot from the key's rate limiter, the source call,
 * one request-log entry per attempt (URL redacted), and the retry policy — wait Retry-After on 429
 * (the limiter pauses everyone), capped backoff with jitter on 5xx, network faults and unreadable
 * bodies, a typed failure after too many attempts. 401/403/400 fail at once.
 *
 * A person waiting (an incident's description on demand) gets an impatient requester: `maxWaitMs`
 * caps the total wait for a rate slot and for Retry-After (beyond it the request fails at once,
 * saying how long the service asked for), and a timed-out attempt is not tried again.
 */
import { ApiError } from '../api/apiError';
import type {
  DetailResult,
  IncidentSource,
  PageQuery,
  PageResult,
  RequestMeta,
  SearchQuery,
  SearchResult,
} from '../api/source';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff';
import { realClock, sleep, type Clock } from '../time/clock';
import type { RateLedger } from './rateLedger';
import { PRIORITY_DETAIL, PRIORITY_SEARCH, type Permit, type RateLimiter } from '../api/rateLimiter';

export type LoggedRequest = {
  url: string;
  status: number | null;
  at: number;
  durationMs: number;
  records: number | null;
  error: string | null;
  /** The request-log row the rate ledger already wrote for this request (then nothing more is logged). */
  logId?: number;
};

/** A result, with the request-log row the rate ledger wrote for it. */
export type Logged<T> = T & { logId?: number };

export type RequesterEvents = {
  /** An attempt failed and will be retried at `retryAt` (epoch ms); `offline` when no answer came. */
  onRetry?(error: ApiError, retryAt: number): void;
  /** Every attempt that failed, for the request log (successful ones are logged with their data). */
  onFailedAttempt?(entry: LoggedRequest): void;
};

/**
 * A gate every request passes before it is sent, beyond this folder (office mode: the office's
 * shared ledger in PostgreSQL, engine/office/leader.ts): `admit` resolves with the slot's id when
 * the key's budget has room, `end` says the request's answer came (or failed).
 */
export type RequestGate = {
  admit(rate: number, signal?: AbortSignal): Promise<number>;
  end(id: number, status: number | null): void;
};

export type RequesterOptions = {
  source: IncidentSource;
  limiter: RateLimiter;
  backoff?: BackoffPolicy;
  clock?: Clock;
  random?: () => number;
  /** Consecutive 429s tolerated before giving up (a storm that never ends). */
  max429?: number;
  /** Longest total wait for a rate slot and Retry-After; unlimited when absent (the sync). */
  maxWaitMs?: number;
  /** Whether an attempt that timed out is tried again (default true). */
  retryTimeouts?: boolean;
  /** The key's rate budget shared with other processes on this data folder (rateLedger.ts). */
  ledger?: RateLedger;
  /** The key's rate budget shared with other desktops (office mode), asked after the local limiter's slot. */
  gate?: RequestGate;
  /** Who hears about retries and failed attempts (a run's watch, runWatch.ts). */
  events?: RequesterEvents;
  /** The run whose requests these are, for the request log (a run's watch); none: no run. */
  runId?: () => number | null;
};

export class Requester {
  requests = 0;
  rateLimited = 0;
  private readonly events: RequesterEvents;
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

  search(query: SearchQuery, signal?: AbortSignal): Promise<Logged<SearchResult>> {
    return this.attempt(
      PRIORITY_SEARCH,
      signal,
      (s) => this.o.source.search(query, s),
      (r) => r.incidents.length,
    );
  }

  /** One v1 cursor page (a source without the v1 surface refuses it): the same slot, ledger and retries. */
  page(query: PageQuery, signal?: AbortSignal): Promise<Logged<PageResult>> {
    const source = this.o.source;
    return this.attempt(
      PRIORITY_SEARCH,
      signal,
      (s) => {
        if (!source.page) throw new ApiError('not_found', 'This connection has no v1 surface.');
        return source.page(query, s);
      },
      (r) => r.incidents.length,
    );
  }

  detail(cdid: number, signal?: AbortSignal, priority = PRIORITY_DETAIL): Promise<Logged<DetailResult>> {
    return this.attempt(
      priority,
      signal,
      (s) => this.o.source.detail(cdid, s),
      () => 1,
    );
  }

  /** A v1 call beside the pages (score, trends): the same slot, ledger and retries. */
  call<T extends { meta: RequestMeta }>(
    call: (source: IncidentSource, s?: AbortSignal) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<Logged<T>> {
    return this.attempt(
      PRIORITY_SEARCH,
      signal,
      (s) => call(this.o.source, s),
      () => 1,
    );
  }

  private async attempt<T extends { meta: RequestMeta }>(
    priority: number,
    signal: AbortSignal | undefined,
    call: (s?: AbortSignal) => Promise<T>,
    records: (r: T) => number,
  ): Promise<Logged<T>> {
    let failures = 0;
    let storms = 0;
    let waitedMs = 0;
    for (;;) {
      const permit = await this.acquire(priority, signal);
      let logId: number | undefined;
      let gateId: number | undefined;
      try {
        gateId = await this.gated(signal);
        logId = await this.admit(signal);
      } catch (error) {
        if (gateId !== undefined) this.o.gate?.end(gateId, null);
        permit.done();
        throw error;
      }
      const at = this.clock.now();
      this.requests++;
      try {
        const result = await call(signal);
        permit.done();
        const m = result.meta;
        if (gateId !== undefined) this.o.gate?.end(gateId, m.status);
        if (logId !== undefined) {
          const entry = {
            url: m.url,
            status: m.status,
            at,
            durationMs: m.durationMs,
            records: records(result),
            error: null,
          };
          this.o.ledger?.end(logId, entry, this.o.runId?.() ?? null);
          return { ...result, logId };
        }
        return result;
      } catch (error) {
        permit.done();
        const e = error instanceof ApiError ? error : new ApiError('offline', String(error));
        if (gateId !== undefined) this.o.gate?.end(gateId, e.details.status ?? null);
        const entry: LoggedRequest = {
          url: e.details.url ?? '',
          status: e.details.status ?? null,
          at,
          durationMs: this.clock.now() - at,
          records: null,
          error: e.message,
          ...(logId !== undefined ? { logId } : {}),
        };
        if (logId !== undefined) this.o.ledger?.end(logId, entry, this.o.runId?.() ?? null);
        if (e.code !== 'cancelled') this.events.onFailedAttempt?.(entry);
        if (e.code === 'rate_limited') {
          this.rateLimited++;
          if (++storms > (this.o.max429 ?? 30)) throw giveUp(e, storms);
          const seconds = e.details.retryAfterSeconds ?? 60;
          this.o.limiter.retryAfter(seconds);
          const retryAt = this.clock.now() + seconds * 1000;
          waitedMs += seconds * 1000;
          if (this.o.maxWaitMs !== undefined && waitedMs > this.o.maxWaitMs) throw tooLong(e, retryAt);
          this.events.onRetry?.(e, retryAt);
          continue;
        }
        if (!e.retryable) throw e;
        if (e.details.timedOut && this.o.retryTimeouts === false) throw e;
        if (++failures >= this.backoff.maxAttempts) throw giveUp(e, failures);
        const wait = backoffDelay(failures - 1, this.backoff, this.o.random);
        this.events.onRetry?.(e, this.clock.now() + wait);
        await sleep(this.clock, wait, signal).catch(() => {
          throw new ApiError('cancelled', 'The sync was stopped.');
        });
      }
    }
  }

  /**
   * The key's shared budget (other processes on this data folder): waits until the request log has
   * room, then holds the slot as the request's log row. Without a ledger, nothing to wait for.
   */
  private async admit(signal: AbortSignal | undefined): Promise<number | undefined> {
    const ledger = this.o.ledger;
    if (!ledger) return undefined;
    for (;;) {
      const a = ledger.admit(this.o.limiter.rate);
      if ('id' in a) return a.id;
      await sleep(this.clock, Math.min(a.retryInMs, 5_000), signal).catch(() => {
        throw new ApiError('cancelled', 'The sync was stopped.');
      });
    }
  }

  /** The office's shared budget (office mode), after this process's own slot; none: nothing to wait for. */
  private async gated(signal: AbortSignal | undefined): Promise<number | undefined> {
    if (!this.o.gate) return undefined;
    try {
      return await this.o.gate.admit(this.o.limiter.rate, signal);
    } catch (error) {
      if (signal?.aborted) throw new ApiError('cancelled', 'The sync was stopped.');
      throw error;
    }
  }

  /** A rate slot, waiting at most `maxWaitMs` for one when set. */
  private async acquire(priority: number, signal: AbortSignal | undefined): Promise<Permit> {
    const maxWaitMs = this.o.maxWaitMs;
    if (maxWaitMs === undefined) return this.o.limiter.acquire(priority, signal);
    const deadline = new AbortController();
    const cancel = this.clock.setTimer(maxWaitMs, () => deadline.abort());
    try {
      return await this.o.limiter.acquire(
        priority,
        signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal,
      );
    } catch (error) {
      if (!deadline.signal.aborted || signal?.aborted) throw error;
      throw new ApiError(
        'rate_limited',
        `Blotter is holding back to stay within the API's rate limit (the plan's requests for this minute are used up, or the service asked it to slow down). Try again in a minute.`,
      );
    } finally {
      cancel();
    }
  }
}

function tooLong(e: ApiError, retryAt: number): ApiError {
  const seconds = e.details.retryAfterSeconds ?? 60;
  const at = new Date(retryAt).toLocaleTimeString('en-GB', { hour12: false });
  return new ApiError(
    'rate_limited',
    `The service asked Blotter to slow down (429) and to wait ${seconds} s before the next request. Try again after ${at}.`,
    e.details,
  );
}

function giveUp(e: ApiError, attempts: number): ApiError {
  return new ApiError(e.code, `${e.message} Gave up after ${attempts} attempts.`, e.details);
}
