/**
 * The data layers of the Map view: the cluster worker, the cluster canvas and the heat canvas,
 * created with the map and removed with it. Clicks on marks come back through `onPick`.
 */
import type * as L from 'leaflet';
import { useEffect, useRef, useState } from 'react';
import type { MapTheme } from './basemap/theme';
import { ClusterClient } from './clusterClient';
import type { ClusterBatch } from './clusterIndex';
import { ClusterLayer, type Pick } from './ClusterLayer';
import { HeatLayer } from './HeatLayer';

export type ClusterLayers = {
  cluster: ClusterClient | null;
  clusters: ClusterLayer | null;
  heat: HeatLayer | null;
};

export function useClusterLayers(
  map: L.Map | null,
  theme: MapTheme,
  onPick: (pick: Pick) => void,
  onDrawn: (batch: ClusterBatch) => void,
): ClusterLayers {
  const [layers, setLayers] = useState<ClusterLayers>({ cluster: null, clusters: null, heat: null });
  const pick = useRef(onPick);
  const drawn = useRef(onDrawn);
  pick.current = onPick;
  drawn.current = onDrawn;

  useEffect(() => {
    if (!map) return;
    const cluster = new ClusterClient();
    const clusters = new ClusterLayer({
      client: cluster,
      style: () => theme.marks,
      onPick: (p) => pick.current(p),
      onDrawn: (b) => drawn.current(b),
    });
    const heat = new HeatLayer(cluster);
    setLayers({ cluster, clusters, heat });
    return () => {
      clusters.remove();
      heat.remove();
      cluster.terminate();
      setLayers({ cluster: null, clusters: null, heat: null });
    };
  }, [map, theme]);

  return layers;
}
