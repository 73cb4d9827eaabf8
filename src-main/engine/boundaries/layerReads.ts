/**
 * A kept layer's geometry read out of the file: each feature as getLayerFeatures draws it, and the
 * counting near its features. The engine thread runs these itself for a small layer; a big one's
 * (its stored JSON over BIG_LAYER_BYTES: 2M corners are ~50 MB of text, seconds to parse) runs on
 * the boundary helper thread over its own read-only connection (boundaryWorker.ts).
 */
import type { LayerFeatureView } from '../../../src-shared/layerCalls';
import type { Db } from '../store/database';
import { countNearPoints, type NearCounts } from './countNear';
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

/** Corners a feature's view holds (the helper thread's parts are cut by them). */
export const viewCorners = (f: LayerFeatureView): number =>
  f.geometry.kind === 'points'
    ? f.geometry.points.length
    : f.geometry.polygons.reduce((n, rings) => rings.reduce((m, r) => m + r.length, n), 0);

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
