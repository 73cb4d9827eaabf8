/**
 * Sites: incidents at the same position (to ~1 m) merged into one weighted point. Crime data is
 * published at block level, so a million incidents sit on tens of thousands of sites; clustering
 * and heat work on sites, which is what keeps a re-cluster in milliseconds. Pure typed arrays.
 */
import { latY, lngX } from './projection';

/** The packed columns of getMapPoints (row i: cdid[i], lat[i], lon[i], types[typeIndex[i]]). */
export type PointColumns = {
  count: number;
  cdid: Float64Array;
  lat: Float32Array;
  lon: Float32Array;
  typeIndex: Uint8Array;
  types: string[];
};

export type Sites = {
  size: number;
  types: string[];
  lat: Float64Array;
  lon: Float64Array;
  /** Web Mercator in [0, 1]. */
  x: Float64Array;
  y: Float64Array;
  /** Incidents per site. */
  count: Uint32Array;
  /** Incidents per site and type: row s is typeCounts[s*T … s*T+T-1], T = types.length. */
  typeCounts: Uint32Array;
  /** Point rows grouped by site: site s owns order[start[s] … start[s+1]-1]. */
  start: Uint32Array;
  order: Uint32Array;
  /** Incidents per type over every site. */
  totals: Uint32Array;
};

const Q = 1e5; // quantum: 1e-5 degree ≈ 1.1 m

export function buildSites(points: PointColumns): Sites {
  const n = points.count;
  const T = Math.max(1, points.types.length);
  const siteOf = new Uint32Array(n);
  // Open addressing over (quantised lat, quantised lon): several times faster than a Map here.
  let capacity = 1024;
  while (capacity < n * 2) capacity *= 2;
  const mask = capacity - 1;
  const slotLat = new Int32Array(capacity);
  const slotLon = new Int32Array(capacity);
  const slotSite = new Int32Array(capacity).fill(-1);
  let size = 0;
  for (let i = 0; i < n; i++) {
    const qa = Math.round(((points.lat[i] as number) + 90) * Q);
    const qo = Math.round(((points.lon[i] as number) + 180) * Q);
    let h = (Math.imul(qa, 0x9e3779b1) ^ Math.imul(qo, 0x85ebca6b)) & mask;
    for (;;) {
      const site = slotSite[h] as number;
      if (site < 0) {
        slotLat[h] = qa;
        slotLon[h] = qo;
        slotSite[h] = size;
        siteOf[i] = size++;
        break;
      }
      if (slotLat[h] === qa && slotLon[h] === qo) {
        siteOf[i] = site;
        break;
      }
      h = (h + 1) & mask;
    }
  }
  const count = new Uint32Array(size);
  const typeCounts = new Uint32Array(size * T);
  const totals = new Uint32Array(T);
  const lat = new Float64Array(size);
  const lon = new Float64Array(size);
  for (let i = 0; i < n; i++) {
    const s = siteOf[i] as number;
    const t = points.typeIndex[i] as number;
    if ((count[s] as number) === 0) {
      lat[s] = points.lat[i] as number;
      lon[s] = points.lon[i] as number;
    }
    count[s] = (count[s] as number) + 1;
    typeCounts[s * T + t] = (typeCounts[s * T + t] as number) + 1;
    totals[t] = (totals[t] as number) + 1;
  }
  const start = new Uint32Array(size + 1);
  for (let s = 0; s < size; s++) start[s + 1] = (start[s] as number) + (count[s] as number);
  const fill = start.slice(0, size);
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const s = siteOf[i] as number;
    order[fill[s] as number] = i;
    fill[s] = (fill[s] as number) + 1;
  }
  const x = new Float64Array(size);
  const y = new Float64Array(size);
  for (let s = 0; s < size; s++) {
    x[s] = lngX(lon[s] as number);
    y[s] = latY(lat[s] as number);
  }
  return { size, types: points.types, lat, lon, x, y, count, typeCounts, start, order, totals };
}

/** [west, south, east, north] of every site, or null when there is none. */
export function sitesBounds(sites: Sites): [number, number, number, number] | null {
  if (sites.size === 0) return null;
  let w = Infinity;
  let s = Infinity;
  let e = -Infinity;
  let n = -Infinity;
  for (let i = 0; i < sites.size; i++) {
    const la = sites.lat[i] as number;
    const lo = sites.lon[i] as number;
    if (lo < w) w = lo;
    if (lo > e) e = lo;
    if (la < s) s = la;
    if (la > n) n = la;
  }
  return [w, s, e, n];
}

/** Incidents per type on the sites inside the box (a world-wrapping box is not split: maps here stay within ±180°). */
export function countInBox(sites: Sites, [w, s, e, n]: [number, number, number, number]): Uint32Array {
  const T = Math.max(1, sites.types.length);
  const out = new Uint32Array(T);
  for (let i = 0; i < sites.size; i++) {
    const la = sites.lat[i] as number;
    const lo = sites.lon[i] as number;
    if (la < s || la > n || lo < w || lo > e) continue;
    const row = i * T;
    for (let t = 0; t < T; t++) out[t] = (out[t] as number) + (sites.typeCounts[row + t] as number);
  }
  return out;
}
