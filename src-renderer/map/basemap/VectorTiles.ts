/**
 * Vector basemaps (MVT in the Protomaps basemap schema, from the user's file or the areas' extract)
 * drawn with protomaps-leaflet in the light or dark flavour of the app's theme. Two layers read the
 * same tile bytes (asked of the engine once per tile, through the bridge): the streets, water and
 * land under the incidents (pane blotter-tiles), and the street and place names in a pane above the
 * incident layer, so the names stay readable over clusters. The page never requests another host.
 */
import { namedFlavor } from '@protomaps/basemaps';
import * as L from 'leaflet';
import { labelRules, leafletLayer, paintRules } from 'protomaps-leaflet';
import type { BasemapInfo } from '../../../src-shared/basemap';
import type { Client } from '../../bridge/client';

export type Flavor = 'light' | 'dark';

/** Above the clusters (420), below drawing (430). */
export const STREET_LABEL_PANE = 'blotter-street-labels';
const LABEL_Z = 425;

/** The subset of a PMTiles archive protomaps-leaflet's PmtilesSource asks of its `url` object. */
type ZxySource = {
  getZxy(z: number, x: number, y: number, signal?: AbortSignal): Promise<{ data: ArrayBuffer } | undefined>;
};

/** The engine's tiles, each asked once while recent (both layers read the same bytes). */
export function engineTileSource(client: Client, keep = 256): ZxySource {
  const recent = new Map<string, Promise<{ data: ArrayBuffer } | undefined>>();
  return {
    getZxy(z, x, y) {
      const key = `${z}/${x}/${y}`;
      let hit = recent.get(key);
      if (hit) {
        recent.delete(key);
        recent.set(key, hit);
        return hit;
      }
      hit = client.call('getBasemapTile', { z, x, y }).then(
        (t) => ({ data: t.bytes.slice().buffer as ArrayBuffer }),
        () => undefined, // no tile here: nothing to draw
      );
      recent.set(key, hit);
      if (recent.size > keep) recent.delete(recent.keys().next().value as string);
      return hit;
    },
  };
}

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
  const style = namedFlavor(flavor);
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
    paintRules: paintRules(style),
    labelRules: [],
    backgroundColor: style.background,
  }) as unknown as ProtomapsLayer;
  const names = leafletLayer({
    ...common,
    pane: STREET_LABEL_PANE,
    paintRules: [],
    labelRules: labelRules(style, 'en'),
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

export const OSM_ATTRIBUTION = '© OpenStreetMap contributors';
