/**
 * A kept layer's geometry read out of the file: each feature as getLayerFeatures draws it, and the
 * counting near its features. The engine thread runs these itself for a small layer; a big one's
 * (its stored JSON over BIG_LAYER_BYTES: 2M corners are ~50 MB of text, seconds to parse) runs on
 * the boundary helper thread over its own read-only connection (boundaryWorker.ts).
 */
import type { LayerFeatureView } from '../../../src-shared/layerCalls';
import type { Db } from '../store/database';
import { countNearPoints, type NearCounts } from './countNear';
import { packGeometry, unpackGeometry, type PackedGeometry } from './heldFile';
import { createLayerStore, type FeatureRecord } from './layerStore';

/** Stored geometry text (characters) past which a layer's reads leave the engine thread (~40k corners). */
export const BIG_LAYER_BYTES = 1_000_000;

export const featureView = (f: FeatureRecord): LayerFeatureView => ({
  id: f.id,
  name: f.name,
  geometry:
    f.geometry.kind === 'points'
      ? {
          kind: 'points' as const,
          points: f.geometry.points.map(([a, b]) => [a, b] as [number, number]),
        }
      : {
          kind: 'polygons' as const,
          polygons: f.geometry.polygons.map((rings) =>
            rings.map((r) => r.map(([a, b]) => [a, b] as [number, number])),
          ),
        },
});

/**
 * A feature as the helper thread hands it on: its geometry packed in typed arrays (copied across
 * as bytes; 2M corners as nested arrays cost as much to copy across as to parse).
 */
export type PackedFeatureView = { id: number; name: string; geometry: PackedGeometry };

export const packedFeatureViews = (db: Db, layerId: number): PackedFeatureView[] =>
  createLayerStore(db)
    .features(layerId)
    .map((f) => ({ id: f.id, name: f.name, geometry: packGeometry(f.geometry) }));

/** Unpacked into the view getLayerFeatures answers, `pause` awaited every ~20 ms. */
export async function unpackedViews(
  features: readonly PackedFeatureView[],
  pause: () => Promise<void>,
): Promise<LayerFeatureView[]> {
  const out: LayerFeatureView[] = [];
  let started = performance.now();
  for (const f of features) {
    // Fresh arrays, readonly only in FeatureGeometry's type.
    out.push({
      id: f.id,
      name: f.name,
      geometry: unpackGeometry(f.geometry) as LayerFeatureView['geometry'],
    });
    if (performance.now() - started > 20) {
      await pause();
      started = performance.now();
    }
  }
  return out;
}

export const layerFeatureViews = (db: Db, layerId: number): LayerFeatureView[] =>
  createLayerStore(db).features(layerId).map(featureView);

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
