/**
 * Timings the benchmark and e2e read from the page (`window.__blotterPerf`): when the first
 * clusters were drawn, how long each re-cluster took (worker round trip + draw), and how long each
 * filter change took to reach the legend's counts. Plain numbers; nothing leaves the page.
 */
export type BlotterPerf = {
  firstClustersAt: number | null;
  points: { incidents: number; sites: number; fetchMs: number; buildMs: number } | null;
  recluster: number[];
  countsUpdated: number[];
  mapRedrawn: number[];
  filterChangedAt: number | null;
  heatDraws: number;
};

declare global {
  interface Window {
    __blotterPerf?: BlotterPerf;
  }
}

export function perf(): BlotterPerf {
  window.__blotterPerf ??= {
    firstClustersAt: null,
    points: null,
    recluster: [],
    countsUpdated: [],
    mapRedrawn: [],
    filterChangedAt: null,
    heatDraws: 0,
  };
  return window.__blotterPerf;
}

const KEEP = 500;
export function record(list: number[], ms: number): void {
  list.push(Math.round(ms * 100) / 100);
  if (list.length > KEEP) list.splice(0, list.length - KEEP);
}
