/**
 * Clusters of sites, answered as packed columns. The algorithm is supercluster's (greedy clustering
 * within a pixel radius, zoom by zoom from the sites up to the world view, each level indexed by a
 * k-d tree), kept in typed arrays: a level is columns (position, incidents, incidents per type, id)
 * plus links to the items of the next finer level it is made of. No object per point or cluster, so
 * building over a million sites takes about a third of what supercluster's feature objects and
 * map/reduce cost, with far less memory; a query reads the level of its zoom and copies rows.
 * One difference: a cluster sits at the centre of its incidents (a site weighs its incidents), not of
 * its sites. cluster.test.ts checks the clusters against supercluster itself.
 */
import { KDTree } from './kdTree';
import { xLng, yLat, type BBox, latY, lngX } from './projection';
import { countInBox, type Sites } from './sites';

export const CLUSTER_MAX_ZOOM = 15;
export const CLUSTER_RADIUS_PX = 44;
/** Tile extent the radius is relative to (supercluster's `extent`): 256 = screen pixels. */
const EXTENT = 256;
const MIN_ZOOM = 0;

/** What getClusters answers: row i is one cluster (id ≥ 0) or one site (id = -(site + 1)). */
export type ClusterBatch = {
  size: number;
  lon: Float64Array;
  lat: Float64Array;
  /** Incidents in the row. */
  count: Uint32Array;
  id: Float64Array;
  /** Incidents per type: row i is typeCounts[i*T … i*T+T-1]. */
  typeCounts: Uint32Array;
  /** Incidents per type inside the view asked about (sites inside, not clusters). */
  inView: Uint32Array;
};

/**
 * One zoom's items. Item j is a cluster made at this zoom (id = j·32 + zoom), or an item of the
 * finer level carried up unchanged (same id; a site's is -(site + 1)). Its parts in the finer level
 * are children[childStart[j] … childStart[j+1]-1] (one for a carried item).
 */
type Level = {
  size: number;
  x: Float64Array | Float32Array;
  y: Float64Array | Float32Array;
  count: Uint32Array;
  typeCounts: Uint32Array;
  id: Int32Array;
  tree: KDTree;
  childStart: Uint32Array;
  children: Uint32Array;
};

export type ClusterIndex = {
  sites: Sites;
  /** levels[z] for z = MIN_ZOOM … CLUSTER_MAX_ZOOM + 1; the last one is the sites themselves. */
  levels: Level[];
};

const clusterId = (index: number, zoom: number): number => index * 32 + zoom;
const zoomOf = (id: number): number => id % 32;
const indexOf = (id: number): number => Math.floor(id / 32);

function siteLevel(sites: Sites): Level {
  const id = new Int32Array(sites.size);
  for (let s = 0; s < sites.size; s++) id[s] = -(s + 1);
  // As supercluster does, points are clustered at Float32 precision (ample: ~1 px at zoom 16).
  const fx = Float32Array.from(sites.x);
  const fy = Float32Array.from(sites.y);
  return {
    size: sites.size,
    x: fx,
    y: fy,
    count: sites.count,
    typeCounts: sites.typeCounts,
    id,
    tree: new KDTree(fx, fy, sites.size),
    childStart: new Uint32Array(sites.size + 1),
    children: new Uint32Array(0),
  };
}

/** The level of `zoom` clustered from the finer one (supercluster's `_cluster`). */
function clusterLevel(finer: Level, zoom: number, T: number): Level {
  const n = finer.size;
  const r = CLUSTER_RADIUS_PX / (EXTENT * 2 ** zoom);
  const done = new Uint8Array(n);
  /** The item of this level each finer item went into. */
  const up = new Uint32Array(n);
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const count = new Uint32Array(n);
  const id = new Int32Array(n);
  const near: number[] = [];
  let size = 0;
  for (let i = 0; i < n; i++) {
    if (done[i]) continue;
    done[i] = 1;
    const c = size++;
    up[i] = c;
    const own = finer.count[i] as number;
    let total = own;
    let wx = (finer.x[i] as number) * own;
    let wy = (finer.y[i] as number) * own;
    near.length = 0;
    finer.tree.within(finer.x[i] as number, finer.y[i] as number, r, near);
    for (const k of near) {
      if (done[k]) continue;
      done[k] = 1;
      up[k] = c;
      const w = finer.count[k] as number;
      total += w;
      wx += (finer.x[k] as number) * w;
      wy += (finer.y[k] as number) * w;
    }
    count[c] = total;
    if (total > own) {
      x[c] = wx / total;
      y[c] = wy / total;
      id[c] = clusterId(c, zoom);
    } else {
      x[c] = finer.x[i] as number;
      y[c] = finer.y[i] as number;
      id[c] = finer.id[i] as number;
    }
  }
  // Incidents per type (sized once the number of items is known), and each item's parts in the
  // finer level grouped by item (a counting sort of `up`).
  const typeCounts = new Uint32Array(size * T);
  const childStart = new Uint32Array(size + 1);
  for (let i = 0; i < n; i++) {
    const c = up[i] as number;
    for (let t = 0; t < T; t++) {
      typeCounts[c * T + t] = (typeCounts[c * T + t] as number) + (finer.typeCounts[i * T + t] as number);
    }
    childStart[c + 1] = (childStart[c + 1] as number) + 1;
  }
  for (let c = 0; c < size; c++)
    childStart[c + 1] = (childStart[c + 1] as number) + (childStart[c] as number);
  const fill = childStart.slice(0, size);
  const children = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const c = up[i] as number;
    children[fill[c] as number] = i;
    fill[c] = (fill[c] as number) + 1;
  }
  const xs = x.slice(0, size);
  const ys = y.slice(0, size);
  return {
    size,
    x: xs,
    y: ys,
    count: count.slice(0, size),
    typeCounts,
    id: id.slice(0, size),
    tree: new KDTree(xs, ys, size),
    childStart,
    children,
  };
}

export function buildClusterIndex(sites: Sites): ClusterIndex {
  const T = Math.max(1, sites.types.length);
  const levels: Level[] = new Array<Level>(CLUSTER_MAX_ZOOM + 2);
  let level = siteLevel(sites);
  levels[CLUSTER_MAX_ZOOM + 1] = level;
  for (let z = CLUSTER_MAX_ZOOM; z >= MIN_ZOOM; z--) {
    level = clusterLevel(level, z, T);
    levels[z] = level;
  }
  return { sites, levels };
}

const levelOf = (zoom: number): number =>
  Math.max(MIN_ZOOM, Math.min(Math.floor(zoom), CLUSTER_MAX_ZOOM + 1));

/** The clusters and single sites in `bbox` at `zoom`; `inView` counts the incidents inside `view`. */
export function queryClusters(
  { sites, levels }: ClusterIndex,
  bbox: BBox,
  zoom: number,
  view: BBox = bbox,
): ClusterBatch {
  const T = Math.max(1, sites.types.length);
  const level = levels[levelOf(zoom)] as Level;
  const [w, s, e, n] = bbox;
  const rows: number[] = [];
  if (sites.size) {
    if (e - w >= 360) level.tree.range(0, latY(n), 1, latY(s), rows);
    else level.tree.range(lngX(Math.max(-180, w)), latY(n), lngX(Math.min(180, e)), latY(s), rows);
  }
  const size = rows.length;
  const batch: ClusterBatch = {
    size,
    lon: new Float64Array(size),
    lat: new Float64Array(size),
    count: new Uint32Array(size),
    id: new Float64Array(size),
    typeCounts: new Uint32Array(size * T),
    inView: countInBox(sites, view),
  };
  rows.forEach((j, i) => {
    const id = level.id[j] as number;
    if (id < 0) {
      // A single site: its own position, not the clustering one.
      batch.lon[i] = sites.lon[-id - 1] as number;
      batch.lat[i] = sites.lat[-id - 1] as number;
    } else {
      batch.lon[i] = xLng(level.x[j] as number);
      batch.lat[i] = yLat(level.y[j] as number);
    }
    batch.count[i] = level.count[j] as number;
    batch.id[i] = id;
    batch.typeCounts.set(level.typeCounts.subarray(j * T, j * T + T), i * T);
  });
  return batch;
}

/** A cluster's parts: items of levels[zoom] (the next finer level), or null for no such cluster. */
function partsOf({ levels }: ClusterIndex, id: number): { zoom: number; items: Uint32Array } | null {
  if (!Number.isInteger(id) || id < 0) return null;
  const zoom = zoomOf(id);
  const j = indexOf(id);
  const level = levels[zoom];
  if (!level || zoom > CLUSTER_MAX_ZOOM || j >= level.size || level.id[j] !== id) return null;
  return { zoom: zoom + 1, items: level.children.subarray(level.childStart[j], level.childStart[j + 1]) };
}

/** The zoom at which a cluster splits; above the index's last zoom when it never does. */
export function expansionZoom(index: ClusterIndex, id: number): number {
  let parts = partsOf(index, id);
  if (!parts) throw new Error('No cluster with the specified id.');
  // Follow a cluster that is all one part down until it splits (as supercluster does).
  for (;;) {
    if (parts.items.length !== 1 || parts.zoom > CLUSTER_MAX_ZOOM) return parts.zoom;
    const level = index.levels[parts.zoom] as Level;
    const only = level.id[parts.items[0] as number] as number;
    const next = only >= 0 ? partsOf(index, only) : null;
    if (!next) return parts.zoom;
    parts = next;
  }
}

/** The sites a cluster (id ≥ 0) or a site (id < 0) is made of, down the levels depth first. */
function sitesOf(index: ClusterIndex, id: number): number[] {
  const { levels } = index;
  if (id < 0) return [-id - 1];
  const siteIds: number[] = [];
  const start = partsOf(index, id);
  if (!start) throw new Error('No cluster with the specified id.');
  const stack: [number, number][] = [];
  for (let k = start.items.length - 1; k >= 0; k--) stack.push([start.zoom, start.items[k] as number]);
  while (stack.length) {
    const [zoom, j] = stack.pop() as [number, number];
    if (zoom === CLUSTER_MAX_ZOOM + 1) {
      siteIds.push(j);
      continue;
    }
    const level = levels[zoom] as Level;
    for (let k = (level.childStart[j + 1] as number) - 1; k >= (level.childStart[j] as number); k--) {
      stack.push([zoom + 1, level.children[k] as number]);
    }
  }
  return siteIds;
}

/**
 * The box [west, south, east, north] holding every incident of a cluster (or site): where a click
 * on it zooms to, so all its members are in the new view.
 */
export function clusterExtent(index: ClusterIndex, id: number): BBox {
  const { sites } = index;
  let w = Infinity;
  let s = Infinity;
  let e = -Infinity;
  let n = -Infinity;
  for (const site of sitesOf(index, id)) {
    const lon = sites.lon[site] as number;
    const lat = sites.lat[site] as number;
    if (lon < w) w = lon;
    if (lon > e) e = lon;
    if (lat < s) s = lat;
    if (lat > n) n = lat;
  }
  return [w, s, e, n];
}

/** Incidents of a cluster (id ≥ 0) or a site (id < 0), at most `limit`, with the full total. */
export function incidentsOf(
  index: ClusterIndex,
  id: number,
  limit: number,
): { rows: Uint32Array; total: number } {
  const { sites } = index;
  const siteIds = sitesOf(index, id);
  let total = 0;
  for (const s of siteIds) total += sites.count[s] as number;
  const rows = new Uint32Array(Math.min(limit, total));
  let k = 0;
  for (const s of siteIds) {
    for (let j = sites.start[s] as number; j < (sites.start[s + 1] as number) && k < rows.length; j++) {
      rows[k++] = sites.order[j] as number;
    }
  }
  return { rows, total };
}
