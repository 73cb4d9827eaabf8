/**
 * The legend's "In view" counts while the cluster layer is off (heat only, or no layer): the cluster
 * layer counts them as it draws, so without it nothing would. This asks the worker for the counts in
 * the visible box after every move, with an empty cluster box (no clusters are built for it).
 */
import type * as L from 'leaflet';
import { useCurrentEffect } from '../bridge/useCall';
import type { ClusterClient } from './clusterClient';
import type { ClusterBatch } from './clusterIndex';
import type { BBox } from './projection';
import { paddedBox } from './ClusterLayer';

/** No clusters wanted: a box with no area, far from any incident. */
const NO_CLUSTERS: BBox = [0, 0, 0, 0];

/** While `watching`, the counts in view after every move; an answer after the watch ended is dropped. */
export function useInViewWatch(
  map: L.Map | null,
  client: ClusterClient | null,
  watching: boolean,
  onCounts: (batch: ClusterBatch) => void,
): void {
  useCurrentEffect(
    (current) => {
      if (!map || !client || !watching) return;
      const update = () => {
        void client.clusters(NO_CLUSTERS, Math.round(map.getZoom()), paddedBox(map, 0)).then((batch) => {
          if (current() && batch) onCounts(batch);
        });
      };
      map.on('moveend', update);
      update();
      return () => void map.off('moveend', update);
    },
    [map, client, watching, onCounts],
  );
}
