/**
 * One rate limiter per API key, covering every request of that key (search and detail alike).
 *
 * The server counts requests in a sliding 60-second window at their arrival. We cannot see arrival,
 * but it lies between a request's start and the end of its response. So a new request may start
 * only while (requests in flight) + (requests that ended less than 60 s ago) < rate: any request the
 * server still counts is in one of those two groups. A small margin covers timer granularity.
 *
 * Waiters are served by priority (on-demand detail fetches first), then in arrival order. On a 429,
 * nothing starts until Retry-After has passed and the rate is cut by a fifth; it recovers by a tenth
 * of the nominal rate per clean window.
 */
import { ApiError } from './apiError';
import { realClock, type Clock } from '../time/clock';

export const PRIORITY_DETAIL = 0;
export const PRIORITY_SEARCH = 1;

const WINDOW_MS = 60_000;
const MARGIN_MS = 100;

export type Permit = { done(): void };
export type LimiterWait = { reason: 'rate' | 'retry-after'; untilMs: number | null };

type Waiter = {
  priority: number;
  seq: number;
  grant: (p: Permit) => void;
  fail: (e: unknown) => void;
  signal?: AbortSignal;
};

export class RateLimiter {
  private nominal: number;
  private effective: number;
  private inFlight = 0;
  private ends: number[] = [];
  private pausedUntil = 0;
  private lastThrottle = -Infinity;
  private queue: Waiter[] = [];
  private seq = 0;
  private cancelTimer: (() => void) | null = null;
  private listeners = new Set<(wait: LimiterWait | null) => void>();

  constructor(
    ratePerMinute: number,
    private readonly clock: Clock = realClock,
  ) {
    this.nominal = Math.max(1, Math.floor(ratePerMinute));
    this.effective = this.nominal;
  }

  get rate(): number {
    return this.effective;
  }

  get nominalRate(): number {
    return this.nominal;
  }

  /** A new plan rate (the user changed plan or Enterprise rate). */
  setRate(ratePerMinute: number): void {
    this.nominal = Math.max(1, Math.floor(ratePerMinute));
    this.effective = Math.min(this.effective, this.nominal);
    if (this.lastThrottle === -Infinity) this.effective = this.nominal;
    this.pump();
  }

  /** Requests that could start right now. */
  freeSlots(): number {
    this.prune();
    if (this.clock.now() < this.pausedUntil) return 0;
    return Math.max(0, this.effective - this.inFlight - this.ends.length);
  }

  /** Records requests made before this limiter existed (e.g. by a killed process), by their end times. */
  seed(endTimes: number[]): void {
    this.ends.push(...endTimes);
    this.ends.sort((a, b) => a - b);
  }

  acquire(priority: number, signal?: AbortSignal): Promise<Permit> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new ApiError('cancelled', 'The sync was stopped.'));
      const onAbort = (): void => {
        this.queue = this.queue.filter((w) => w !== waiter);
        reject(new ApiError('cancelled', 'The sync was stopped.'));
        this.pump();
      };
      const waiter: Waiter = {
        priority,
        seq: this.seq++,
        grant: (p) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(p);
        },
        fail: reject,
        signal,
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
      this.queue.sort((a, b) => a.priority - b.priority || a.seq - b.seq);
      this.pump();
    });
  }

  /** The server said 429: wait as it asked, and slow down. */
  retryAfter(seconds: number): void {
    const now = this.clock.now();
    this.pausedUntil = Math.max(this.pausedUntil, now + seconds * 1000);
    this.effective = Math.max(1, Math.floor(this.effective * 0.8));
    this.lastThrottle = now;
    this.pump();
  }

  /** Hears when requests must wait (and why), and when they flow again (null). */
  onWait(listener: (wait: LimiterWait | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private prune(): void {
    const cutoff = this.clock.now() - WINDOW_MS - MARGIN_MS;
    let drop = 0;
    while (drop < this.ends.length && (this.ends[drop] as number) <= cutoff) drop++;
    if (drop > 0) this.ends.splice(0, drop);
  }

  private recover(now: number): void {
    if (this.effective < this.nominal && now - this.lastThrottle >= WINDOW_MS) {
      this.effective = Math.min(this.nominal, this.effective + Math.max(1, Math.ceil(this.nominal / 10)));
      this.lastThrottle = now;
    }
  }

  private pump(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
    for (;;) {
      this.prune();
      const now = this.clock.now();
      this.recover(now);
      if (this.queue.length === 0) return this.tell(null);
      if (now < this.pausedUntil) {
        this.schedule(this.pausedUntil - now);
        return this.tell({ reason: 'retry-after', untilMs: this.pausedUntil });
      }
      const used = this.inFlight + this.ends.length;
      if (used < this.effective) {
        const w = this.queue.shift() as Waiter;
        this.inFlight++;
        w.grant(this.permit());
        continue;
      }
      // The slot frees when enough finished requests age out; if all are in flight, on a release.
      const k = used - this.effective; // index of the end that must expire
      const end = this.ends[k];
      const until = end === undefined ? null : end + WINDOW_MS + MARGIN_MS + 1;
      if (until !== null) this.schedule(until - now);
      return this.tell({ reason: 'rate', untilMs: until });
    }
  }

  private permit(): Permit {
    let released = false;
    return {
      done: () => {
        if (released) return;
        released = true;
        this.inFlight--;
        this.ends.push(this.clock.now());
        this.pump();
      },
    };
  }

  private schedule(ms: number): void {
    this.cancelTimer = this.clock.setTimer(ms, () => {
      this.cancelTimer = null;
      this.pump();
    });
  }

  private tell(wait: LimiterWait | null): void {
    for (const l of this.listeners) l(wait);
  }
}

/** The process's limiters, one per key (by a digest, so the map never holds a key in clear). */
const limiters = new Map<string, RateLimiter>();

export function limiterFor(keyDigest: string, ratePerMinute: number, clock: Clock = realClock): RateLimiter {
  let l = limiters.get(keyDigest);
  if (!l) limiters.set(keyDigest, (l = new RateLimiter(ratePerMinute, clock)));
  else if (l.nominalRate !== Math.max(1, Math.floor(ratePerMinute))) l.setRate(ratePerMinute);
  return l;
}
