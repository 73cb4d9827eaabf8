import Supercluster from 'supercluster';
import { describe, expect, it } from 'vitest';
import { ClusterClient, type WorkerLike } from './clusterClient';
import {
  buildClusterIndex,
  clusterExtent,
  CLUSTER_MAX_ZOOM,
  CLUSTER_RADIUS_PX,
  expansionZoom,
  incidentsOf,
  queryClusters,
} from './clusterIndex';
import type { FromWorker, ToWorker } from './clusterProtocol';
import { createClusterWorker } from './clusterWorkerCore';
import { heatImage } from './heatGrid';
import { buildSites, countInBox, sitesBounds, sortedOrder, type PointColumns } from './sites';

function columns(
  rows: [number, number, number, number][],
  types = ['Theft', 'Assault', 'Fraud'],
): PointColumns {
  return {
    count: rows.length,
    cdid: Float64Array.from(rows.map((r) => r[0])),
    lat: Float32Array.from(rows.map((r) => r[1])),
    lon: Float32Array.from(rows.map((r) => r[2])),
    typeIndex: Uint8Array.from(rows.map((r) => r[3])),
    types,
  };
}

// Two blocks in Chicago (three incidents on one, one on the other) and one in Denver.
const ROWS: [number, number, number, number][] = [
  [101, 41.88, -87.63, 0],
  [102, 41.88, -87.63, 1],
  [103, 41.88, -87.63, 0],
  [104, 41.881, -87.631, 2],
  [105, 39.74, -104.99, 1],
];

describe('sites', () => {
  it('merges incidents at one position and counts them per type', () => {
    const sites = buildSites(columns(ROWS));
    expect(sites.size).toBe(3);
    expect(Array.from(sites.count)).toEqual([3, 1, 1]);
    expect(Array.from(sites.typeCounts.subarray(0, 3))).toEqual([2, 1, 0]);
    expect(Array.from(sites.totals)).toEqual([2, 2, 1]);
    expect(Array.from(sites.order.subarray(sites.start[0], sites.start[1]))).toEqual([0, 1, 2]);
    const [w, s, e, n] = sitesBounds(sites) ?? [];
    expect(w).toBeCloseTo(-104.99, 3);
    expect(n).toBeCloseTo(41.881, 3);
    expect(s).toBeCloseTo(39.74, 3);
    expect(e).toBeCloseTo(-87.63, 3);
    expect(Array.from(countInBox(sites, [-88, 41, -87, 42]))).toEqual([2, 1, 1]);
  });

  it('counts the incidents in a box from its grid exactly as a scan of every site would', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) as number;
    const rows: [number, number, number, number][] = [];
    for (let i = 0; i < 4000; i++) {
      // Dense blocks (repeat sites) and scattered points over two cities.
      const city = i % 3 === 0 ? [39.74, -104.99] : [41.88, -87.63];
      const block = i % 5 === 0;
      rows.push([
        i,
        (city[0] as number) + (block ? Math.floor(rand() * 20) * 0.004 : rand() * 0.3),
        (city[1] as number) + (block ? Math.floor(rand() * 20) * 0.004 : rand() * 0.4),
        Math.floor(rand() * 3),
      ]);
    }
    const sites = buildSites(columns(rows));
    const scan = ([w, s, e, n]: number[]) => {
      const out = [0, 0, 0];
      for (let i = 0; i < sites.size; i++) {
        const la = sites.lat[i] as number;
        const lo = sites.lon[i] as number;
        if (la < (s as number) || la > (n as number) || lo < (w as number) || lo > (e as number)) continue;
        for (let t = 0; t < 3; t++) out[t] = (out[t] as number) + (sites.typeCounts[i * 3 + t] as number);
      }
      return out;
    };
    const boxes: [number, number, number, number][] = [
      [-180, -85, 180, 85],
      [-88, 41, -87, 42],
      [-87.6, 41.9, -87.45, 42.05],
      [-87.601, 41.95, -87.6, 41.951],
      [-105, 39.7, -104.9, 39.8],
      [10, 10, 20, 20],
    ];
    for (let k = 0; k < 40; k++) {
      const w = -87.7 + rand() * 0.4;
      const s = 41.85 + rand() * 0.3;
      boxes.push([w, s, w + rand() * 0.2, s + rand() * 0.1]);
    }
    for (const box of boxes) expect(Array.from(countInBox(sites, box))).toEqual(scan(box));
    expect(sites.cellStart[sites.cellKey.length]).toBe(sites.size);
  });

  it('sorts keys stably', () => {
    const keys = Uint32Array.from([70_000, 5, 70_000, 0xffffffff, 5, 0, 65_536]);
    expect(Array.from(sortedOrder(keys))).toEqual([5, 1, 4, 6, 0, 2, 3]);
  });

  it('handles no points at all', () => {
    const sites = buildSites(columns([]));
    expect(sites.size).toBe(0);
    expect(sitesBounds(sites)).toBeNull();
    expect(queryClusters(buildClusterIndex(sites), [-180, -85, 180, 85], 3).size).toBe(0);
  });
});

describe('clusters', () => {
  const index = buildClusterIndex(buildSites(columns(ROWS)));
  const world: [number, number, number, number] = [-180, -85, 180, 85];

  it('clusters nearby sites at low zoom, with incident counts per type', () => {
    const low = queryClusters(index, world, 4);
    expect(low.size).toBe(2);
    const chicago = Array.from(low.count).indexOf(4);
    expect(chicago).toBeGreaterThanOrEqual(0);
    expect(low.id[chicago]).toBeGreaterThanOrEqual(0);
    expect(Array.from(low.typeCounts.subarray(chicago * 3, chicago * 3 + 3))).toEqual([2, 1, 1]);
    expect(Array.from(low.inView)).toEqual([2, 2, 1]);
    // the reduce must not have changed the sites' own counts
    expect(Array.from(index.sites.typeCounts.subarray(0, 3))).toEqual([2, 1, 0]);
  });

  it('shows single sites at high zoom, and a cluster knows its expansion zoom and incidents', () => {
    const high = queryClusters(index, [-88, 41, -87, 42], CLUSTER_MAX_ZOOM + 1);
    expect(Array.from(high.count).sort()).toEqual([1, 3]);
    expect(Array.from(high.id).every((id) => id < 0)).toBe(true);
    const low = queryClusters(index, [-88, 41, -87, 42], 4);
    const id = low.id[0] as number;
    expect(expansionZoom(index, id)).toBeGreaterThan(4);
    const all = incidentsOf(index, id, 10);
    expect(all.total).toBe(4);
    expect(Array.from(all.rows).sort()).toEqual([0, 1, 2, 3]);
    expect(incidentsOf(index, -1, 2)).toEqual({ rows: Uint32Array.from([0, 1]), total: 3 });
  });
});

describe('clusters, against supercluster itself', () => {
  // Two cities, dense and sparse parts, one incident per site (supercluster weighs points equally;
  // ours weighs sites by their incidents, which is the same here).
  let seed = 11;
  const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const rows: [number, number, number, number][] = [];
  for (let i = 0; i < 6000; i++) {
    const city = i % 4 === 0 ? [39.74, -104.99] : [41.88, -87.63];
    const spread = i % 3 === 0 ? 0.03 : 0.3;
    rows.push([
      i,
      (city[0] as number) + (rand() - 0.5) * spread,
      (city[1] as number) + (rand() - 0.5) * spread * 1.3,
      Math.floor(rand() * 3),
    ]);
  }
  const sites = buildSites(columns(rows));
  const ours = buildClusterIndex(sites);
  type P = { n: number; c: number[] };
  const theirs = new Supercluster<P, P>({
    maxZoom: CLUSTER_MAX_ZOOM,
    radius: CLUSTER_RADIUS_PX,
    extent: 256,
    map: (p) => ({ n: p.n, c: [...p.c] }),
    reduce: (acc, p) => {
      acc.n += p.n;
      acc.c = acc.c.map((v, t) => v + (p.c[t] as number));
    },
  });
  theirs.load(
    Array.from({ length: sites.size }, (_, s) => ({
      type: 'Feature' as const,
      properties: { n: sites.count[s] as number, c: Array.from(sites.typeCounts.subarray(s * 3, s * 3 + 3)) },
      geometry: { type: 'Point' as const, coordinates: [sites.lon[s] as number, sites.lat[s] as number] },
    })),
  );
  const key = (count: number, lon: number, lat: number, c: ArrayLike<number>) =>
    `${count} ${lon.toFixed(6)} ${lat.toFixed(6)} ${Array.from(c).join(',')}`;

  it('makes the same clusters, with the same counts per type, at every zoom', () => {
    const boxes: [number, number, number, number][] = [
      [-180, -85, 180, 85],
      [-87.7, 41.8, -87.55, 41.95],
      [-105.05, 39.7, -104.95, 39.8],
    ];
    for (let zoom = 0; zoom <= CLUSTER_MAX_ZOOM + 2; zoom++) {
      for (const box of boxes) {
        const batch = queryClusters(ours, box, zoom);
        const mine = Array.from({ length: batch.size }, (_, i) =>
          key(
            batch.count[i] as number,
            batch.lon[i] as number,
            batch.lat[i] as number,
            batch.typeCounts.subarray(i * 3, i * 3 + 3),
          ),
        ).sort();
        const expected = theirs
          .getClusters(box, zoom)
          .map((f) => {
            const [lon, lat] = f.geometry.coordinates as [number, number];
            const p = f.properties as P & { cluster?: boolean; point_count?: number };
            return key(p.cluster ? (p.point_count as number) : p.n, lon, lat, p.c);
          })
          .sort();
        expect(mine).toEqual(expected);
      }
    }
  });

  it('knows where each cluster splits and which incidents it holds', () => {
    for (const zoom of [3, 8, 11, 14, CLUSTER_MAX_ZOOM]) {
      const batch = queryClusters(ours, [-180, -85, 180, 85], zoom);
      const features = theirs.getClusters([-180, -85, 180, 85], zoom);
      for (let i = 0; i < batch.size; i += Math.ceil(batch.size / 40)) {
        const id = batch.id[i] as number;
        if (id < 0) continue;
        const lon = (batch.lon[i] as number).toFixed(6);
        const lat = (batch.lat[i] as number).toFixed(6);
        const twin = features.find((f) => {
          const [x, y] = f.geometry.coordinates as [number, number];
          return x.toFixed(6) === lon && y.toFixed(6) === lat;
        });
        const theirId = (twin?.properties as { cluster_id?: number } | undefined)?.cluster_id;
        expect(theirId).toBeDefined();
        expect(expansionZoom(ours, id)).toBe(theirs.getClusterExpansionZoom(theirId as number));
        const { rows: held, total } = incidentsOf(ours, id, 1e9);
        expect(total).toBe(batch.count[i]);
        expect(held.length).toBe(total);
        expect(new Set(held).size).toBe(total);
        const leaves = theirs.getLeaves(theirId as number, Infinity).map((f) => f.properties.n);
        expect(leaves.reduce((a, b) => a + b, 0)).toBe(total);
      }
    }
    expect(() => expansionZoom(ours, 12345679)).toThrow();
  });

  it("gives a cluster's extent: the box of exactly its members' positions (supercluster's leaves)", () => {
    let checked = 0;
    for (const zoom of [4, 9, 12, CLUSTER_MAX_ZOOM]) {
      const batch = queryClusters(ours, [-180, -85, 180, 85], zoom);
      const features = theirs.getClusters([-180, -85, 180, 85], zoom);
      for (let i = 0; i < batch.size; i += Math.ceil(batch.size / 30)) {
        const id = batch.id[i] as number;
        if (id < 0) continue;
        const twin = features.find((f) => {
          const [x, y] = f.geometry.coordinates as [number, number];
          return (
            x.toFixed(6) === (batch.lon[i] as number).toFixed(6) &&
            y.toFixed(6) === (batch.lat[i] as number).toFixed(6)
          );
        });
        const leaves = theirs.getLeaves((twin?.properties as { cluster_id: number }).cluster_id, Infinity);
        const lons = leaves.map((f) => f.geometry.coordinates[0] as number);
        const lats = leaves.map((f) => f.geometry.coordinates[1] as number);
        const [w, s, e, n] = clusterExtent(ours, id);
        expect(w).toBeCloseTo(Math.min(...lons), 9);
        expect(e).toBeCloseTo(Math.max(...lons), 9);
        expect(s).toBeCloseTo(Math.min(...lats), 9);
        expect(n).toBeCloseTo(Math.max(...lats), 9);
        // Wider than the one point the cluster is drawn at: the old "one level in" zoom lost members.
        expect(e - w + (n - s)).toBeGreaterThan(0);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
    // A site's extent is its one position.
    const [w, s, e, n] = clusterExtent(ours, -1);
    expect([w, s]).toEqual([e, n]);
    expect(() => clusterExtent(ours, 12345679)).toThrow();
  });

  it('puts a cluster at the centre of its incidents, not of its sites', () => {
    const index = buildClusterIndex(
      buildSites(
        columns([
          [1, 41.88, -87.63, 0],
          [2, 41.88, -87.63, 0],
          [3, 41.88, -87.63, 1],
          [4, 41.884, -87.634, 2],
        ]),
      ),
    );
    const batch = queryClusters(index, [-180, -85, 180, 85], 10);
    expect(batch.size).toBe(1);
    expect(batch.count[0]).toBe(4);
    expect(batch.lon[0]).toBeCloseTo(-87.631, 4);
    expect(batch.lat[0]).toBeCloseTo(41.881, 3);
  });
});

describe('heat', () => {
  it('puts colour where the incidents are and nothing elsewhere', () => {
    const sites = buildSites(columns(ROWS));
    const zoom = 10;
    const scale = 256 * 2 ** zoom;
    const cx = (sites.x[0] as number) * scale;
    const cy = (sites.y[0] as number) * scale;
    const image = heatImage(sites, { left: cx - 200, top: cy - 100, width: 400, height: 200, zoom });
    expect(image.width).toBe(100);
    expect(image.height).toBe(50);
    const alphaAt = (x: number, y: number) => image.data[(y * image.width + x) * 4 + 3] as number;
    expect(alphaAt(50, 25)).toBeGreaterThan(150);
    expect(alphaAt(2, 2)).toBe(0);
  });
});

describe('the cluster worker', () => {
  it('answers clusters for the latest points only, and drops superseded requests', async () => {
    const core = createClusterWorker();
    const posted: ToWorker[] = [];
    const worker: WorkerLike = {
      onmessage: null,
      postMessage(message) {
        posted.push(message);
        const { message: reply } = core.handle(structuredClone(message));
        queueMicrotask(() => worker.onmessage?.({ data: reply } as MessageEvent<FromWorker>));
      },
      terminate() {},
    };
    const client = new ClusterClient(worker);
    const info = await client.load(columns(ROWS));
    expect(info).toMatchObject({ incidents: 5, sites: 3, types: ['Theft', 'Assault', 'Fraud'] });
    expect(Array.from(info.totals)).toEqual([2, 2, 1]);
    const first = client.clusters([-180, -85, 180, 85], 2);
    const second = client.clusters([-180, -85, 180, 85], 3);
    const third = client.clusters([-180, -85, 180, 85], 4);
    expect(await second).toBeNull();
    expect((await first)?.size).toBeGreaterThan(0);
    expect((await third)?.size).toBe(2);
    const list = await client.incidents(-1, 10);
    expect(Array.from(list?.cdid ?? [])).toEqual([101, 102, 103]);
    expect(posted.filter((m) => m.type === 'clusters')).toHaveLength(2);
    const cluster = (await client.clusters([-180, -85, 180, 85], 4))?.id.find((id) => id >= 0) as number;
    const [w, s, e, n] = (await client.extent(cluster)) ?? [];
    expect(w).toBeCloseTo(-87.631, 5);
    expect(e).toBeCloseTo(-87.63, 5);
    expect(s).toBeCloseTo(41.88, 5);
    expect(n).toBeCloseTo(41.881, 5);
  });
});
