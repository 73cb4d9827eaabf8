/**
 * Fault injection, settable at start and at runtime. Draws come from a seeded stream, so a run with
 * the same seed and the same request order misbehaves the same way.
 */
import type { Prng } from '../data/prng';

export type Storm429 = {
  /** Refuse this many requests with 429 ... */
  count?: number;
  /** ... or every request for this long from when it was set (whichever ends first when both). */
  forMs?: number;
  /** The Retry-After the storm announces, seconds. Default 1. */
  retryAfterSec?: number;
};

export type Faults = {
  /** Share of requests (0–1) answered with a JSON 500/502/503. */
  errorRate: number;
  /** Delay added before every response, ms. */
  latencyMs: number;
  /** Share of 200 responses whose body is cut mid-JSON (Content-Length matches the cut body). */
  truncateRate: number;
  /** Share of requests answered with an HTML 502/503 page, as a proxy in front would. */
  htmlRate: number;
  /** A burst of 429s regardless of the rate limit; null when none. */
  storm429: Storm429 | null;
  /** Share of requests (0–1) answered with a 429 (Retry-After 1) at random, regardless of the rate limit. */
  rate429: number;
};

export const NO_FAULTS: Faults = {
  errorRate: 0,
  latencyMs: 0,
  truncateRate: 0,
  htmlRate: 0,
  storm429: null,
  rate429: 0,
};

export type Spoil = { kind: 'none' } | { kind: 'error'; status: number } | { kind: 'html'; status: number };

export class FaultInjector {
  private faults: Faults = { ...NO_FAULTS };
  private stormLeft = Infinity;
  private stormUntil = Infinity;

  constructor(
    private readonly prng: Prng,
    initial: Partial<Faults> = {},
    private readonly now: () => number = () => performance.now(),
  ) {
    this.set(initial);
  }

  /** Changes some settings; invalid settings throw and change nothing. */
  set(partial: Partial<Faults>): void {
    const next = { ...this.faults, ...partial };
    for (const k of ['errorRate', 'truncateRate', 'htmlRate', 'rate429'] as const) {
      if (!(next[k] >= 0 && next[k] <= 1)) throw new RangeError(`${k} must be within 0..1`);
    }
    if (!(next.latencyMs >= 0)) throw new RangeError('latencyMs must be ≥ 0');
    const s = next.storm429;
    if (s && s.count === undefined && s.forMs === undefined)
      throw new RangeError('storm429 needs count or forMs');
    this.faults = next;
    if ('storm429' in partial) {
      this.stormLeft = s?.count ?? Infinity;
      this.stormUntil = s?.forMs !== undefined ? this.now() + s.forMs : Infinity;
    }
  }

  get current(): Faults {
    return { ...this.faults };
  }

  get latencyMs(): number {
    return this.faults.latencyMs;
  }

  /** Whether this request is caught in a 429 storm (consumes one from its count) or a random 429; its Retry-After. */
  storm(): number | null {
    const s = this.faults.storm429;
    if (!s) return this.faults.rate429 > 0 && this.prng.next() < this.faults.rate429 ? 1 : null;
    if (this.stormLeft <= 0 || this.now() >= this.stormUntil) {
      this.faults.storm429 = null;
      return null;
    }
    this.stormLeft--;
    return s.retryAfterSec ?? 1;
  }

  /** Whether to replace this response with a server error or an HTML page. */
  spoil(): Spoil {
    const { errorRate, htmlRate } = this.faults;
    if (errorRate > 0 && this.prng.next() < errorRate) {
      return { kind: 'error', status: [500, 502, 503][this.prng.int(0, 2)] ?? 500 };
    }
    if (htmlRate > 0 && this.prng.next() < htmlRate)
      return { kind: 'html', status: this.prng.next() < 0.5 ? 502 : 503 };
    return { kind: 'none' };
  }

  /** Where to cut a 200 body of `length` characters, or null to leave it whole. */
  truncateAt(length: number): number | null {
    const rate = this.faults.truncateRate;
    if (rate <= 0 || length < 2 || this.prng.next() >= rate) return null;
    return this.prng.int(1, length - 1);
  }
}
