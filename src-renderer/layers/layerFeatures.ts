/**
 * A layer's features (names and geometry) asked once per layer and kept for the page: the map's
 * drawing, the feature picker and the filter bar's chip share them. The geometry comes packed in
 * typed arrays; the drawing unpacks it once per answer (`drawnFeatures`). Forgotten when a layer is
 * deleted or the call fails.
 */
import type { CallOutput } from '../../src-shared/contract';
import { featureViewsOf, type LayerFeatureView } from '../../src-shared/layerCalls';
import type { Client } from '../bridge/client';

export type LayerFeatures = CallOutput<'getLayerFeatures'>;

const cache = new Map<number, Promise<LayerFeatures>>();

export function layerFeatures(client: Client, layerId: number): Promise<LayerFeatures> {
  let p = cache.get(layerId);
  if (!p) {
    p = client.call('getLayerFeatures', { layerId });
    p.catch(() => cache.delete(layerId));
    cache.set(layerId, p);
  }
  return p;
}

const unpacked = new WeakMap<LayerFeatures, LayerFeatureView[]>();

/** An answer's features with their geometry unpacked for drawing (once per answer). */
export function drawnFeatures(answer: LayerFeatures): LayerFeatureView[] {
  let views = unpacked.get(answer);
  if (!views) {
    views = featureViewsOf(answer);
    unpacked.set(answer, views);
  }
  return views;
}

export function forgetLayer(layerId: number): void {
  cache.delete(layerId);
}

/** Metres from a distance typed in feet or metres. */
export const toMetres = (value: number, unit: 'ft' | 'm'): number => (unit === 'ft' ? value * 0.3048 : value);
