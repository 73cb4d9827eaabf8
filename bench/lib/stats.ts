/** Small statistics and timing helpers for benchmarks that print JSON. */
export const round = (x: number, digits = 1): number => Math.round(x * 10 ** digits) / 10 ** digits;

export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (at - lo);
}

export type Timing = { ms: number; cpuMs: number };

/** Wall and CPU time (this process, all threads) of an async call. */
export async function time<T>(fn: () => Promise<T> | T): Promise<{ value: T } & Timing> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await fn();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { value, ms, cpuMs: (used.user + used.system) / 1000 };
}

export function summary(timings: readonly Timing[]): Record<string, number> {
  const ms = timings.map((t) => t.ms);
  const cpu = timings.map((t) => t.cpuMs);
  return {
    n: timings.length,
    medianMs: round(quantile(ms, 0.5)),
    p95Ms: round(quantile(ms, 0.95)),
    maxMs: round(Math.max(...ms)),
    cpuMedianMs: round(quantile(cpu, 0.5)),
    cpuMaxMs: round(Math.max(...cpu)),
  };
}
