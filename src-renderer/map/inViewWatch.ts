/**
 * The legend's "In view" counts while the cluster layer is off (heat only, or no layer): the cluster
 * layer counts them as it draws, so without it nothing would. This asks the worker for the counts in
 * the visible box after every move, with an empty cluster box (no clusters are built for it).
 */
import type * as L from 'leaflet';
import type { ClusterClient } from './clusterClient';
import type { ClusterBatch } from './clusterIndex';
import type { BBox } from './projection';
import { paddedBox } from './ClusterLayer';

/** No clusters wanted: a box with no area, far from any incident. */
const NO_CLUSTERS: BBox = [0, 0, 0, 0];

export function watchInView(
  map: L.Map,
  client: ClusterClient,
  onCounts: (batch: ClusterBatch) => void,
): () => void {
  let live = true;
  const update = () => {
    void client.clusters(NO_CLUSTERS, Math.round(map.getZoom()), paddedBox(map, 0)).then((batch) => {
      if (live && batch) onCounts(batch);
    });
  };
  map.on('moveend', update);
  update();
  return () => {
    live = false;
    map.off('moveend', update);
  };
}
