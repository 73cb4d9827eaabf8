/**
 * Clusters of sites with supercluster, answered as packed columns. Each cluster carries its number
 * of incidents and a count per type (supercluster's map/reduce), so the map can colour it by its
 * dominant type and draw the mix as a ring. Sites reach supercluster through a proxy that makes a
 * feature only when supercluster asks for one: no array of a million objects.
 */
import Supercluster from 'supercluster';
import { countInBox, type Sites } from './sites';
import type { BBox } from './projection';

export const CLUSTER_MAX_ZOOM = 15;
export const CLUSTER_RADIUS_PX = 44;

type Props = { s?: number; n: number; c: ArrayLike<number>; o?: unknown };
type SiteFeature = {
  type: 'Feature';
  properties: Props;
  geometry: { type: 'Point'; coordinates: [number, number] };
};

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
  /** Incidents per type inside the box asked about (sites inside, not clusters). */
  inView: Uint32Array;
};

export type ClusterIndex = {
  sites: Sites;
  index: Supercluster<Props, Props>;
};

/** Sites as features, made on demand; properties (counts per type) only when supercluster reads them. */
function siteFeatures(sites: Sites): SiteFeature[] {
  const T = Math.max(1, sites.types.length);
  class Feature {
    readonly type = 'Feature' as const;
    readonly geometry: SiteFeature['geometry'];
    constructor(readonly s: number) {
      this.geometry = { type: 'Point', coordinates: [sites.lon[s] as number, sites.lat[s] as number] };
    }
    get properties(): Props {
      const s = this.s;
      return { s, n: sites.count[s] as number, c: sites.typeCounts.subarray(s * T, s * T + T) };
    }
  }
  const target: SiteFeature[] = [];
  return new Proxy(target, {
    get(_t, key) {
      if (key === 'length') return sites.size;
      if (typeof key === 'string') {
        const i = Number(key);
        if (Number.isInteger(i) && i >= 0 && i < sites.size) return new Feature(i);
      }
      return Reflect.get(target, key);
    },
  });
}

export function buildClusterIndex(sites: Sites): ClusterIndex {
  const index = new Supercluster<Props, Props>({
    maxZoom: CLUSTER_MAX_ZOOM,
    radius: CLUSTER_RADIUS_PX,
    extent: 256,
    map: (p) => ({ n: p.n, c: p.c }),
    reduce: (acc, p) => {
      // supercluster hands a shallow copy of a child's properties as the start: copy its array once.
      if (acc.o !== acc) {
        acc.c = Array.from(acc.c);
        acc.o = acc;
      }
      const c = acc.c as number[];
      acc.n += p.n;
      for (let t = 0; t < p.c.length; t++) c[t] = (c[t] as number) + (p.c[t] as number);
    },
  });
  index.load(siteFeatures(sites) as unknown as Supercluster.PointFeature<Props>[]);
  return { sites, index };
}

export function queryClusters({ sites, index }: ClusterIndex, bbox: BBox, zoom: number): ClusterBatch {
  const T = Math.max(1, sites.types.length);
  const features = sites.size ? index.getClusters(bbox, Math.floor(zoom)) : [];
  const size = features.length;
  const batch: ClusterBatch = {
    size,
    lon: new Float64Array(size),
    lat: new Float64Array(size),
    count: new Uint32Array(size),
    id: new Float64Array(size),
    typeCounts: new Uint32Array(size * T),
    inView: countInBox(sites, bbox),
  };
  features.forEach((f, i) => {
    const [lon, lat] = f.geometry.coordinates as [number, number];
    batch.lon[i] = lon;
    batch.lat[i] = lat;
    const site = (f as unknown as { s?: number }).s;
    if (site !== undefined) {
      // A single site: read its counts straight from the columns.
      batch.count[i] = sites.count[site] as number;
      batch.id[i] = -(site + 1);
      batch.typeCounts.set(sites.typeCounts.subarray(site * T, site * T + T), i * T);
      return;
    }
    const p = f.properties as Props & { cluster_id?: number };
    batch.count[i] = p.n;
    batch.id[i] = p.cluster_id as number;
    batch.typeCounts.set(Array.from(p.c).slice(0, T), i * T);
  });
  return batch;
}

/** The zoom at which a cluster splits; above the index's last zoom when it never does. */
export function expansionZoom({ index }: ClusterIndex, clusterId: number): number {
  return index.getClusterExpansionZoom(clusterId);
}

/** Incidents of a cluster (id ≥ 0) or a site (id < 0), at most `limit`, with the full total. */
export function incidentsOf(
  { sites, index }: ClusterIndex,
  id: number,
  limit: number,
): { rows: Uint32Array; total: number } {
  const siteIds =
    id < 0 ? [-id - 1] : index.getLeaves(id, Infinity).map((f) => (f.properties as Props).s as number);
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
