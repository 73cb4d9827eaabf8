/**
 * Per-key sliding 60-second window. Every request that passes authentication takes a slot; a request
 * refused with 429 takes none. Retry-After is the whole seconds until the oldest slot frees.
 */
const WINDOW_MS = 60_000;

export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Takes a slot for `key`, or returns the Retry-After seconds when none is free. */
  take(key: string, perMinute: number): { ok: true } | { ok: false; retryAfter: number } {
    const t = this.now();
    let list = this.hits.get(key);
    if (!list) this.hits.set(key, (list = []));
    let drop = 0;
    while (drop < list.length && (list[drop] ?? 0) <= t - WINDOW_MS) drop++;
    if (drop > 0) list.splice(0, drop);
    if (list.length >= perMinute) {
      const oldest = list[list.length - perMinute] ?? t;
      return { ok: false, retryAfter: Math.max(1, Math.ceil((oldest + WINDOW_MS - t) / 1000)) };
    }
    list.push(t);
    return { ok: true };
  }

  reset(): void {
    this.hits.clear();
  }
}
