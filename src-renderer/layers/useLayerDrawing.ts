/**
 * The shown reference layers on the map, each in its colour with its features' names: the feature the
 * filter bar filters by drawn heavier, and a distance drawn around the points of the filtered or
 * counted layer. Drawn again when any of those change; features that answer after that are dropped.
 */
import type * as L from 'leaflet';
import type { Filters } from '../../src-shared/filters';
import type { LayerView } from '../../src-shared/layerCalls';
import type { Client } from '../bridge/client';
import { useCurrentEffect } from '../bridge/useCall';
import { drawnFeatures, layerFeatures } from './layerFeatures';
import { drawReferenceLayer, LAYER_COLOURS, type LabelTheme } from './referenceLayer';

export type Counting = { layerId: number; bufferM: number; unit: 'ft' | 'm' };

export function useLayerDrawing(
  map: L.Map | null,
  client: Client,
  drawn: { layers: LayerView[]; shown: ReadonlySet<number>; theme: LabelTheme },
  selected: Filters['feature'] | null,
  counting: Counting | null,
): void {
  const { layers, shown, theme } = drawn;
  useCurrentEffect(
    (current) => {
      if (!map) return;
      const undo: (() => void)[] = [];
      layers.forEach((layer, k) => {
        if (!shown.has(layer.id)) return;
        void layerFeatures(client, layer.id).then((a) => {
          if (!current()) return;
          const bufferM =
            selected?.layerId === layer.id
              ? selected.bufferM
              : counting?.layerId === layer.id
                ? counting.bufferM
                : undefined;
          undo.push(
            drawReferenceLayer(map, drawnFeatures(a), {
              colour: LAYER_COLOURS[k % LAYER_COLOURS.length] as string,
              theme,
              selectedId: selected?.layerId === layer.id ? selected.featureId : null,
              ...(bufferM ? { bufferM } : {}),
            }),
          );
        });
      });
      return () => undo.forEach((u) => u());
    },
    [map, client, layers, shown, theme, selected, counting],
  );
}
