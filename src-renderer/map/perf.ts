/**
 * Timings the benchmark and e2e read from the page (`window.__blotterPerf`): when the first
 * clusters were drawn, how long each re-cluster took (worker round trip + draw), and how long each
 * filter change took to reach the legend's counts. Plain numbers; nothing leaves the page.
 */
export type BlotterPerf = {
  firstClustersAt: number | null;
  /** What the first clusters drawn were: the engine's sketch or the full index, their incidents. */
  firstClusters: { source: 'sketch' | 'index'; total: number; updating: boolean } | null;
  points: { incidents: number; sites: number; fetchMs: number; buildMs: number } | null;
  recluster: number[];
  countsUpdated: number[];
  mapRedrawn: number[];
  filterChangedAt: number | null;
  heatDraws: number;
  /** The marks drawn last, in map-container pixels: centre, radius, incidents, cluster or not. */
  marks: { x: number; y: number; r: number; count: number; cluster: boolean }[];
  /** The last cluster click: its incidents, their box [w, s, e, n] and the zoom it was clicked at. */
  clusterZoom?: { count: number; extent: [number, number, number, number]; fromZoom: number };
};

declare global {
  interface Window {
    __blotterPerf?: BlotterPerf;
  }
}

export function perf(): BlotterPerf {
  window.__blotterPerf ??= {
    firstClustersAt: null,
    firstClusters: null,
    points: null,
    recluster: [],
    countsUpdated: [],
    mapRedrawn: [],
    filterChangedAt: null,
    heatDraws: 0,
    marks: [],
  };
  return window.__blotterPerf;
}

const KEEP = 500;
export function record(list: number[], ms: number): void {
  list.push(Math.round(ms * 100) / 100);
  if (list.length > KEEP) list.splice(0, list.length - KEEP);
}

/**
 * A `performance` mark (or, with `start`, a measure from then to now) named `blotter:<name>`, shown
 * in DevTools' timeline; only the latest of each name is kept in the buffer, so a long session
 * does not grow it.
 */
export function mark(name: string, start?: number): void {
  const full = `blotter:${name}`;
  if (typeof performance.mark !== 'function') return;
  if (start === undefined) {
    performance.clearMarks(full);
    performance.mark(full);
  } else {
    performance.clearMeasures(full);
    performance.measure(full, { start, end: performance.now() });
  }
}
