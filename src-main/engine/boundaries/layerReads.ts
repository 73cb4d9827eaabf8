/**
 * A kept layer's geometry read out of the file: its features packed as getLayerFeatures answers, and the
 * counting near its features. The engine thread runs these itself for a small layer; a big one's
 * (its stored JSON over BIG_LAYER_BYTES: 2M corners are ~50 MB of text, seconds to parse) runs on
 * the boundary helper thread over its own read-only connection (boundaryWorker.ts).
 */
import { packGeometry, packLayerGeometry } from '../../../src-shared/geo';
import type { LayerFeaturesResult } from '../../../src-shared/layerCalls';
import type { Db } from '../store/database';
import { countNearPoints, type NearCounts } from './countNear';
import { createLayerStore } from './layerStore';

/** Stored geometry text (characters) past which a layer's reads leave the engine thread (~40k corners). */
export const BIG_LAYER_BYTES = 1_000_000;

/** What getLayerFeatures answers besides the layer: names and kinds, and the packed geometry. */
export type PackedLayer = Pick<LayerFeaturesResult, 'features' | 'geometry'>;

/**
 * A layer's features with their geometry packed in typed arrays (src-shared/geo/packed.ts): copied
 * to a host, or across from the helper thread, as bytes.
 */
export function packedLayer(db: Db, layerId: number): PackedLayer {
  const features = createLayerStore(db).features(layerId);
  return {
    features: features.map((f) => ({ id: f.id, name: f.name, kind: f.geometry.kind })),
    geometry: packLayerGeometry(features.map((f) => packGeometry(f.geometry))),
  };
}

/** The buffers of a packed layer's arrays (moved to another thread, not copied). */
export const packedBuffers = ({ geometry: g }: PackedLayer): ArrayBuffer[] =>
  [g.coords, g.parts, g.cornerStarts, g.partStarts].map((a) => a.buffer as ArrayBuffer);

/**
 * Per feature (file order) the points within `metres` (countNear.ts); `pause` is awaited every
 * ~30 ms of counting.
 */
export const countNearLayerIn = (
  db: Db,
  layerId: number,
  lat: Float64Array,
  lon: Float64Array,
  metres: number,
  pause?: () => Promise<void>,
): Promise<NearCounts> => countNearPoints(lat, lon, createLayerStore(db).features(layerId), metres, pause);
