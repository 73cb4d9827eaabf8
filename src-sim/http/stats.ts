/** Request counts per key, status and route, so tests and benchmarks can count what a client spent. */
export type KeyStats = { total: number; byStatus: Record<string, number>; rateLimited: number };

export type SimStats = {
  total: number;
  byStatus: Record<string, number>;
  byRoute: Record<string, number>;
  /** Per authenticated key; requests without a known key are counted under "(none)". */
  byKey: Record<string, KeyStats>;
};

const emptyKey = (): KeyStats => ({ total: 0, byStatus: {}, rateLimited: 0 });

export class StatsCollector {
  private s: SimStats = { total: 0, byStatus: {}, byRoute: {}, byKey: {} };

  record(key: string | null, route: string, status: number): void {
    const s = this.s;
    s.total++;
    s.byStatus[status] = (s.byStatus[status] ?? 0) + 1;
    s.byRoute[route] = (s.byRoute[route] ?? 0) + 1;
    const k = (s.byKey[key ?? '(none)'] ??= emptyKey());
    k.total++;
    k.byStatus[status] = (k.byStatus[status] ?? 0) + 1;
    if (status === 429) k.rateLimited++;
  }

  snapshot(): SimStats {
    return structuredClone(this.s);
  }

  reset(): void {
    this.s = { total: 0, byStatus: {}, byRoute: {}, byKey: {} };
  }
}
