/**
 * The Region of a filter's `feature` (src-shared/filters.ts FeatureFilter): the stored feature of
 * a reference layer, grown by its buffer (src-shared/geo bufferedRegion). The query's one filter
 * loop tests its box first, then this exact test.
 *
 * A 250k-corner feature takes 130–700 ms to parse and buffer, so regions are kept (the last few,
 * keyed by the feature, the buffer and the stored row's size and box: a deleted layer's feature is
 * never found, a replaced one never matches), and a big feature's first region is made ready by
 * `prepareFeatureRegion` before the query: parsed, projected and its edges indexed on the boundary
 * helper thread (src-shared/geo regionParts), the query waiting without holding the engine thread.
 */
import type { FeatureFilter } from '../../../src-shared/filters';
import {
  bufferedRegion,
  regionOfParts,
  regionParts,
  type Region,
  type RegionParts,
} from '../../../src-shared/geo';
import { EngineError } from '../errors';
import { createLogger } from '../log';
import type { Db } from '../store/database';
import { runBoundaryJob } from './boundaryThread';
import { createLayerStore } from './layerStore';

const log = createLogger('boundaries');

/** Stored geometry text past which a feature's region is made on the helper thread (~8k corners). */
export const BIG_FEATURE_BYTES = 200_000;
/** Regions kept per database (a 250k-corner one holds ~30 MB). */
const KEPT = 4;

type FeatureRow = { layerId: number; name: string; kind: 'polygons' | 'points'; bytes: number; box: string };

const kept = new WeakMap<Db, Map<string, Region>>();
const making = new WeakMap<Db, Map<string, Promise<void>>>();
const mapOf = <T>(all: WeakMap<Db, Map<string, T>>, db: Db): Map<string, T> => {
  let m = all.get(db);
  if (!m) all.set(db, (m = new Map()));
  return m;
};

/** The feature's row as the filter names it (its geometry not read), or the refusal in words. */
function featureRow(db: Db, ref: FeatureFilter): { row: FeatureRow; key: string; metres: number } {
  const row = db
    .prepare<[number], FeatureRow>(
      `SELECT layer_id AS layerId, name, kind, octet_length(geometry) AS bytes,
              min_lat || ',' || min_lon || ',' || max_lat || ',' || max_lon AS box
         FROM reference_features WHERE id = ?`,
    )
    .get(ref.featureId);
  if (!row || row.layerId !== ref.layerId)
    throw new EngineError('not_found', 'That reference layer or feature no longer exists; pick another.');
  const metres = ref.bufferM ?? 0;
  if (row.kind === 'points' && metres <= 0)
    throw new EngineError(
      'bad_input',
      `"${row.name}" is a point: give a distance around it (for example 1,000 ft).`,
      [{ path: 'feature.bufferM', message: 'A point needs a distance.' }],
    );
  return { row, key: `${ref.featureId}|${metres}|${row.bytes}|${row.box}`, metres };
}

function keep(db: Db, key: string, region: Region): Region {
  const regions = mapOf(kept, db);
  regions.delete(key);
  regions.set(key, region);
  while (regions.size > KEPT) regions.delete(regions.keys().next().value as string);
  return region;
}

export function featureRegion(db: Db, ref: FeatureFilter): Region {
  const { key, metres } = featureRow(db, ref);
  const region = mapOf(kept, db).get(key);
  if (region) return keep(db, key, region);
  const feature = createLayerStore(db).feature(ref.featureId);
  if (!feature)
    throw new EngineError('not_found', 'That reference layer or feature no longer exists; pick another.');
  return keep(db, key, bufferedRegion(feature.geometry, metres));
}

/**
 * Makes a big feature's region ready for `featureRegion` off the engine thread (a small one's, or
 * one already kept, is left to it). A feature that is gone is left to `featureRegion` to refuse.
 */
export async function prepareFeatureRegion(db: Db, ref: FeatureFilter): Promise<void> {
  let found: ReturnType<typeof featureRow>;
  try {
    found = featureRow(db, ref);
  } catch {
    return;
  }
  const { row, key, metres } = found;
  if (row.bytes <= BIG_FEATURE_BYTES || db.memory || mapOf(kept, db).has(key)) return;
  const pending = mapOf(making, db);
  let made = pending.get(key);
  if (!made) {
    made = runBoundaryJob({ kind: 'featureRegion', dbFile: db.name, featureId: ref.featureId, metres })
      .then((parts) => {
        if (parts) keep(db, key, regionOfParts(parts));
      })
      // The thread failed or was ended: featureRegion makes the region itself, as for a small one.
      .catch((error: unknown) => log.warn('a feature region was not made on the boundary thread', { error }))
      .finally(() => pending.delete(key));
    pending.set(key, made);
  }
  await made;
}

/** A feature's region parts, made on the helper thread (boundaryWorker.ts); null when it is gone. */
export function featureRegionParts(db: Db, featureId: number, metres: number): RegionParts | null {
  const feature = createLayerStore(db).feature(featureId);
  return feature ? regionParts(feature.geometry, metres) : null;
}

/** Every typed array's buffer in `value` once (moved across, not copied). */
export function buffersOf(value: unknown, found = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) found.add(value.buffer as ArrayBuffer);
  else if (typeof value === 'object' && value !== null)
    for (const v of Object.values(value)) buffersOf(v, found);
  return [...found];
}

/** "Beat 0111 (Beats)" for a filter's words; undefined when the feature is gone. */
export function featureLabel(db: Db, ref: FeatureFilter): string | undefined {
  const store = createLayerStore(db);
  const feature = store.feature(ref.featureId);
  const layer = feature ? store.get(feature.layerId) : undefined;
  return feature && layer ? `${feature.name} (${layer.name})` : undefined;
}
