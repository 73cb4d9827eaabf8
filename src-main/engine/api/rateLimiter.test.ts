import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../sync/backoff';
import { FakeClock } from '../time/clock';
import { PRIORITY_DETAIL, PRIORITY_SEARCH, RateLimiter, type Permit } from './rateLimiter';

/** Runs `n` requests through the limiter, each taking `latency` ms; returns their start times. */
async function run(
  limiter: RateLimiter,
  clock: FakeClock,
  n: number,
  latency: number,
  concurrency = n,
): Promise<number[]> {
  const starts: number[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < n) {
      next++;
      const permit = await limiter.acquire(PRIORITY_SEARCH);
      starts.push(clock.now());
      await new Promise<void>((r) => clock.setTimer(latency, r));
      permit.done();
    }
  };
  const all = Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  let done = false;
  void all.then(() => (done = true));
  while (!done) await clock.advance(250);
  return starts;
}

/** The most requests any server would count in a 60 s window, if each arrived `arrival` ms after its start. */
function worstWindow(starts: number[], arrival: number): number {
  const a = starts.map((s) => s + arrival).sort((x, y) => x - y);
  let worst = 0;
  for (let i = 0, j = 0; i < a.length; i++) {
    while ((a[j] as number) <= (a[i] as number) - 60_000) j++;
    worst = Math.max(worst, i - j + 1);
  }
  return worst;
}

describe('RateLimiter', () => {
  it('never lets more than the rate arrive in any 60 s window, whatever the latency', async () => {
    for (const latency of [0, 40, 900]) {
      const clock = new FakeClock(1_000_000);
      const limiter = new RateLimiter(10, clock);
      const starts = await run(limiter, clock, 35, latency, 4);
      expect(starts).toHaveLength(35);
      for (const arrival of [0, latency / 2, latency])
        expect(worstWindow(starts, arrival)).toBeLessThanOrEqual(10);
      // …and it does not dawdle: 35 requests at 10/min need 3 full windows after the first burst.
      expect(Math.max(...starts) - 1_000_000).toBeLessThan(3 * 60_000 + 4 * (latency + 500));
    }
  });

  it('honours Retry-After and slows down afterwards', async () => {
    const clock = new FakeClock(0);
    const limiter = new RateLimiter(100, clock);
    limiter.retryAfter(7);
    expect(limiter.rate).toBe(80);
    let granted = -1;
    void limiter.acquire(PRIORITY_SEARCH).then((p) => {
      granted = clock.now();
      p.done();
    });
    await clock.advance(6_900);
    expect(granted).toBe(-1);
    await clock.advance(200);
    expect(granted).toBe(7_000);
    await clock.advance(61_000);
    void (await limiter.acquire(PRIORITY_SEARCH)).done();
    expect(limiter.rate).toBe(90);
  });

  it('serves on-demand detail fetches before queued searches', async () => {
    const clock = new FakeClock(0);
    const limiter = new RateLimiter(1, clock);
    const first = await limiter.acquire(PRIORITY_SEARCH);
    const order: string[] = [];
    const take = (name: string, priority: number) =>
      limiter.acquire(priority).then((p: Permit) => {
        order.push(name);
        p.done();
      });
    const all = Promise.all([
      take('search-1', PRIORITY_SEARCH),
      take('search-2', PRIORITY_SEARCH),
      take('detail', PRIORITY_DETAIL),
    ]);
    first.done();
    for (let i = 0; i < 4; i++) await clock.advance(61_000);
    await all;
    expect(order).toEqual(['detail', 'search-1', 'search-2']);
  });

  it('drops a waiter whose sync was stopped', async () => {
    const clock = new FakeClock(0);
    const limiter = new RateLimiter(1, clock);
    (await limiter.acquire(PRIORITY_SEARCH)).done();
    const stop = new AbortController();
    const waiting = limiter.acquire(PRIORITY_SEARCH, stop.signal);
    stop.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('counts requests of an earlier process that it is told about', async () => {
    const clock = new FakeClock(100_000);
    const limiter = new RateLimiter(3, clock);
    limiter.seed([95_000, 96_000, 97_000]);
    expect(limiter.freeSlots()).toBe(0);
    await clock.advance(56_000);
    expect(limiter.freeSlots()).toBe(1);
  });
});

describe('backoffDelay', () => {
  it('grows exponentially with jitter, up to the cap', () => {
    const policy = { baseMs: 1000, capMs: 8000, maxAttempts: 5 };
    expect(backoffDelay(0, policy, () => 0)).toBe(500);
    expect(backoffDelay(0, policy, () => 1)).toBe(1000);
    expect(backoffDelay(2, policy, () => 0.5)).toBe(3000);
    expect(backoffDelay(10, policy, () => 1)).toBe(8000);
  });
});
