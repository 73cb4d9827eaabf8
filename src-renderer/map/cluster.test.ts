import { describe, expect, it } from 'vitest';
import { ClusterClient, type WorkerLike } from './clusterClient';
import {
  buildClusterIndex,
  CLUSTER_MAX_ZOOM,
  expansionZoom,
  incidentsOf,
  queryClusters,
} from './clusterIndex';
import type { FromWorker, ToWorker } from './clusterProtocol';
import { createClusterWorker } from './clusterWorkerCore';
import { heatImage } from './heatGrid';
import { buildSites, countInBox, sitesBounds, type PointColumns } from './sites';

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
  });
});
