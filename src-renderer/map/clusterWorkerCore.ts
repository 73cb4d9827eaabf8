/**
 * What the cluster worker does, as a plain function of its messages (so tests run it without a
 * Worker): keep the latest points, their sites and cluster index; answer clusters, heat, expansion
 * zooms and the incidents of a cluster. Answers name the arrays to transfer (no copies).
 */
import {
  buildClusterIndex,
  clusterExtent,
  expansionZoom,
  incidentsOf,
  queryClusters,
  type ClusterIndex,
} from './clusterIndex';
import type { FromWorker, ToWorker } from './clusterProtocol';
import { heatImage } from './heatGrid';
import { buildSites, sitesBounds, type PointColumns } from './sites';

export type Reply = { message: FromWorker; transfer: Transferable[] };

export function createClusterWorker(now: () => number = () => performance.now()) {
  let generation = 0;
  let points: PointColumns | null = null;
  let index: ClusterIndex | null = null;

  function handle(msg: ToWorker): Reply {
    if (msg.type === 'load') {
      const started = now();
      generation = msg.id;
      points = msg.points;
      index = buildClusterIndex(buildSites(points));
      const { sites } = index;
      const totals = sites.totals.slice();
      return {
        message: {
          id: msg.id,
          type: 'loaded',
          info: {
            generation,
            incidents: points.count,
            sites: sites.size,
            types: sites.types,
            totals,
            bounds: sitesBounds(sites),
            buildMs: now() - started,
          },
        },
        transfer: [totals.buffer],
      };
    }
    if (!index || !points || msg.generation !== generation) {
      return { message: { id: msg.id, type: 'error', message: 'stale' }, transfer: [] };
    }
    switch (msg.type) {
      case 'clusters': {
        const started = now();
        const batch = queryClusters(index, msg.bbox, msg.zoom, msg.view);
        return {
          message: { id: msg.id, type: 'clusters', generation, batch, ms: now() - started },
          transfer: [
            batch.lon.buffer,
            batch.lat.buffer,
            batch.count.buffer,
            batch.id.buffer,
            batch.typeCounts.buffer,
            batch.inView.buffer,
          ],
        };
      }
      case 'heat': {
        const image = heatImage(index.sites, msg.view);
        return { message: { id: msg.id, type: 'heat', generation, image }, transfer: [image.data.buffer] };
      }
      case 'expand':
        return {
          message: { id: msg.id, type: 'expand', generation, zoom: expansionZoom(index, msg.clusterId) },
          transfer: [],
        };
      case 'extent':
        return {
          message: { id: msg.id, type: 'extent', generation, bbox: clusterExtent(index, msg.clusterId) },
          transfer: [],
        };
      case 'incidents': {
        const { rows, total } = incidentsOf(index, msg.target, msg.limit);
        const cdid = new Float64Array(rows.length);
        const typeIndex = new Uint8Array(rows.length);
        rows.forEach((r, i) => {
          cdid[i] = points?.cdid[r] as number;
          typeIndex[i] = points?.typeIndex[r] as number;
        });
        return {
          message: { id: msg.id, type: 'incidents', generation, list: { cdid, typeIndex, total } },
          transfer: [cdid.buffer, typeIndex.buffer],
        };
      }
    }
  }

  return {
    handle(msg: ToWorker): Reply {
      try {
        return handle(msg);
      } catch (error) {
        return { message: { id: msg.id, type: 'error', message: (error as Error).message }, transfer: [] };
      }
    },
  };
}
