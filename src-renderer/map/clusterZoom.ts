/**
 * A cluster click: the map fits the cluster's extent (the box of all its incidents, from the
 * worker), so every member is in the new view — not one level in, where members fell outside.
 * Members all at one spot cannot be told apart by zooming: the caller lists them instead.
 */
import * as L from 'leaflet';
import type { ClusterClient } from './clusterClient';
import { perf } from './perf';

/** The deepest a cluster click zooms (the map itself goes to 19): street level. */
export const CLUSTER_CLICK_MAX_ZOOM = 18;

export type FitPadding = { paddingTopLeft: [number, number]; paddingBottomRight: [number, number] };

/** Fits the cluster's extent; false when its incidents share one position (nothing to zoom to). */
export async function zoomToCluster(
  map: L.Map,
  client: ClusterClient,
  clusterId: number,
  count: number,
  padding: FitPadding,
): Promise<boolean> {
  const box = await client.extent(clusterId);
  if (!box) return false;
  const [w, s, e, n] = box;
  if (w === e && s === n) return false;
  const bounds = L.latLngBounds([s, w], [n, e]);
  perf().clusterZoom = { count, extent: box, fromZoom: map.getZoom() };
  map.fitBounds(bounds, { ...padding, maxZoom: CLUSTER_CLICK_MAX_ZOOM });
  return true;
}
