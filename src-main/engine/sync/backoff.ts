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
