/**
 * The Region of a filter's `feature` (src-shared/filters.ts FeatureFilter): the stored feature of
 * a reference layer, grown by its buffer (src-shared/geo bufferedRegion). The query's one filter
 * loop tests its box first, then this exact test.
 */
import type { FeatureFilter } from '../../../src-shared/filters';
import { bufferedRegion, type Region } from '../../../src-shared/geo';
import { EngineError } from '../errors';
import type { Db } from '../store/database';
import { createLayerStore } from './layerStore';

export function featureRegion(db: Db, ref: FeatureFilter): Region {
  const feature = createLayerStore(db).feature(ref.featureId);
  if (!feature || feature.layerId !== ref.layerId)
    throw new EngineError('not_found', 'That reference layer or feature no longer exists; pick another.');
  const metres = ref.bufferM ?? 0;
  if (feature.geometry.kind === 'points' && metres <= 0)
    throw new EngineError(
      'bad_input',
      `"${feature.name}" is a point: give a distance around it (for example 1,000 ft).`,
      [{ path: 'feature.bufferM', message: 'A point needs a distance.' }],
    );
  return bufferedRegion(feature.geometry, metres);
}

/** "Beat 0111 (Beats)" for a filter's words; undefined when the feature is gone. */
export function featureLabel(db: Db, ref: FeatureFilter): string | undefined {
  const store = createLayerStore(db);
  const feature = store.feature(ref.featureId);
  const layer = feature ? store.get(feature.layerId) : undefined;
  return feature && layer ? `${feature.name} (${layer.name})` : undefined;
}
