/**
 * The map's first paint: as soon as the map and its cluster layer exist, the engine's sketch of the
 * filters' incidents (getMapSketch: a coarse grid at the map's zoom, every incident counted) is
 * drawn as clusters; the worker's full index replaces it when built. Asked again when the archive
 * changes, so `updating` (answers from a saved snapshot behind the file) clears once the engine
 * has read the file again.
 */
import type * as L from 'leaflet';
import { useState } from 'react';
import type { Filters } from '../../src-shared/filters';
import type { Client } from '../bridge/client';
import { useCurrentEffect } from '../bridge/useCall';
import type { ClusterLayer } from './ClusterLayer';
import { coloursFor } from './palette';
import { sketchBatch } from './sketchBatch';
import { takeSketch } from './sketchPrefetch';

export type SketchState = { drawn: boolean; updating: boolean };

export function useMapSketch(
  client: Client,
  map: L.Map | null,
  clusters: ClusterLayer | null,
  filters: Filters,
  dataVersion: number,
  indexed: boolean,
): SketchState {
  const [state, setState] = useState<SketchState>({ drawn: false, updating: false });
  const key = JSON.stringify(filters);
  useCurrentEffect(
    (current) => {
      if (!map || !clusters) return;
      takeSketch(client, JSON.parse(key) as Filters, Math.round(map.getZoom())).then(
        (sketch) => {
          if (!current()) return;
          if (!indexed) clusters.showSketch(sketchBatch(sketch), coloursFor(sketch.types), sketch.updating);
          setState({ drawn: true, updating: sketch.updating });
        },
        () => undefined, // the points' own call reports failures
      );
    },
    // `indexed` is read, not followed: once the index is in, only the archive's changes ask again.
    [client, map, clusters, key, dataVersion],
  );
  return state;
}
