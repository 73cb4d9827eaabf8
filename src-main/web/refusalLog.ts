/**
 * Refused requests, logged in aggregate: the first refusal of a quiet spell gets a line at once,
 * the rest are counted by reason and summed up in one line per minute. Anyone on the machine can
 * send requests to the loopback port, so one line per refusal would let them flood stderr and the
 * log file (80,000 lines in 8 seconds were seen).
 */
export const REFUSAL_WINDOW_MS = 60_000;

export type RefusalLog = {
  /** Counts one refused request (`reason` in a few words, no request data). */
  refused(reason: string): void;
  /** Writes the pending summary now (on close). */
  flush(): void;
};

export function createRefusalLog(
  write: (line: string) => void,
  options: { now?: () => number; windowMs?: number } = {},
): RefusalLog {
  const now = options.now ?? Date.now;
  const windowMs = options.windowMs ?? REFUSAL_WINDOW_MS;
  let windowStart = -Infinity;
  let counts = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;

  function flush(): void {
    clearTimeout(timer);
    timer = undefined;
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    if (total > 0) {
      const parts = [...counts].map(([reason, n]) => `${reason}: ${n}`).join(', ');
      write(`refused ${total} more request${total === 1 ? '' : 's'} in the last minute (${parts})`);
    }
    counts = new Map();
  }

  return {
    refused(reason) {
      const at = now();
      if (at - windowStart >= windowMs) {
        // A new window: say it at once, then count until the window ends.
        flush();
        windowStart = at;
        write(`refused a request (${reason}); further refusals are counted and logged once a minute`);
        timer = setTimeout(flush, windowMs);
        timer.unref();
        return;
      }
      counts.set(reason, (counts.get(reason) ?? 0) + 1);
    },
    flush,
  };
}
