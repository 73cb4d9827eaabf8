/**
 * Vector basemaps (MVT in the Protomaps basemap schema, from the user's file or the areas' extract)
 * drawn with protomaps-leaflet in the light or dark flavour of the app's theme. Two layers read the
 * same tile bytes (asked of the engine once per tile, through the bridge): the streets, water and
 * land under the incidents (pane blotter-tiles), and the street and place names in a pane above the
 * heat map and the area outlines but below the clusters, so the names stay readable over the heat
 * and never cover a cluster's count. The page never requests another host.
 */
import * as L from 'leaflet';
import { leafletLayer } from 'protomaps-leaflet';
import type { BasemapInfo } from '../../../src-shared/basemap';
import type { Client } from '../../bridge/client';
import { engineTileSource } from './engineTiles';
import { flavorStyle, type Flavor } from './flavor';

export type { Flavor };

/** Above the heat (390) and the area outlines (400), below the clusters (420): names never cover a count. */
export const STREET_LABEL_PANE = 'blotter-street-labels';
const LABEL_Z = 415;

type ProtomapsLayer = L.GridLayer & {
  paintRules: unknown[];
  labelRules: unknown[];
  backgroundColor?: string;
};

/** The streets (below the incidents) and their names (above them), as one Leaflet layer group. */
export function vectorTiles(client: Client, info: BasemapInfo, flavor: Flavor): L.LayerGroup {
  // protomaps-leaflet subclasses the global L.GridLayer.
  const g = globalThis as { L?: unknown };
  g.L ??= L;
  const source = engineTileSource(client);
  const style = flavorStyle(flavor);
  const bounds = info.bounds
    ? L.latLngBounds([info.bounds[1], info.bounds[0]], [info.bounds[3], info.bounds[2]])
    : undefined;
  const common = {
    url: source as never,
    maxDataZoom: info.maxZoom,
    attribution: '',
    ...(bounds ? { bounds } : {}),
    keepBuffer: 1,
  };
  const streets = leafletLayer({
    ...common,
    pane: 'blotter-tiles',
    paintRules: style.paintRules,
    labelRules: [],
    backgroundColor: style.background,
  }) as unknown as ProtomapsLayer;
  const names = leafletLayer({
    ...common,
    pane: STREET_LABEL_PANE,
    paintRules: [],
    labelRules: style.labelRules,
  }) as unknown as ProtomapsLayer;
  return L.layerGroup([streets, names]);
}

/** The names' pane, made once per map before the layers are added. */
export function ensureLabelPane(map: L.Map): void {
  if (map.getPane(STREET_LABEL_PANE)) return;
  const pane = map.createPane(STREET_LABEL_PANE);
  pane.style.zIndex = String(LABEL_Z);
  pane.style.pointerEvents = 'none';
}
