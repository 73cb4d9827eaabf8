/**
 * The engine's map sketch (getMapSketch: the filtered incidents in a coarse grid) as a ClusterBatch
 * the cluster layer draws like any other: one mark per cell, its counts per type for the pie.
 */
import type { MapSketch } from '../../src-shared/incidentQueries';
import type { ClusterBatch } from './clusterIndex';

export function sketchBatch(sketch: MapSketch): ClusterBatch {
  const size = sketch.count.length;
  return {
    size,
    lat: Float64Array.from(sketch.lat),
    lon: Float64Array.from(sketch.lon),
    count: Uint32Array.from(sketch.count),
    // Cells are not clusters of the index: no id to expand (clicks wait for the index).
    id: new Float64Array(size).fill(Number.NaN),
    typeCounts: Uint32Array.from(sketch.typeCounts),
    inView: new Uint32Array(sketch.types.length),
  };
}
