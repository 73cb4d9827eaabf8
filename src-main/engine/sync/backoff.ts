/**
 * Capped exponential backoff with jitter for 5xx, network faults and unreadable bodies: the n-th
 * retry waits between half and all of min(cap, base · 2^n), so clients that failed together do not
 * come back together.
 */
export type BackoffPolicy = { baseMs: number; capMs: number; maxAttempts: number };

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 60_000, maxAttempts: 6 };

export function backoffDelay(
  retry: number,
  policy: BackoffPolicy = DEFAULT_BACKOFF,
  random = Math.random,
): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, retry));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * A description on demand (a person is waiting in the incident panel): one quick retry after half
 * a second to a second for a network fault or a 5xx, then the answer — about 1–2 s in all.
 */
export const ON_DEMAND_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 1_000, maxAttempts: 2 };
