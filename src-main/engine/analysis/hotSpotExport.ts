/**
 * Hot spots as GeoJSON: every cell the statistic was computed over (empty ones included; masked
 * cells were not computed and are left out) as a lon/lat polygon with row, col, count, gi_z, p,
 * p_fdr and bin, and the parameters (plus the caller's filters and coverage) at the top level.
 */
import type { HotSpotParameters, HotSpotResult } from './getisOrd';
import type { GridFeature, GridFeatureCollection, Provenance } from './kdeExport';

const sig = (v: number): number => Number(v.toPrecision(6));

export function hotSpotGeoJson(
  result: HotSpotResult,
  provenance: Provenance = {},
): GridFeatureCollection<HotSpotParameters & Provenance> {
  const features: GridFeature[] = [];
  for (let i = 0; i < result.grid.size; i++) {
    const f = hotSpotFeature(result, i);
    if (f) features.push(f);
  }
  return { type: 'FeatureCollection', parameters: { ...result.parameters, ...provenance }, features };
}

/** Cell i as a GeoJSON feature, or null when it is masked (not computed). */
export function hotSpotFeature(result: HotSpotResult, i: number): GridFeature | null {
  if (!result.mask[i]) return null;
  const { grid, utm } = result;
  const col = i % grid.cols;
  return {
    type: 'Feature',
    geometry: { type: 'Polygon', coordinates: [grid.ringLonLat(i, utm)] },
    properties: {
      row: (i - col) / grid.cols,
      col,
      count: result.counts[i] as number,
      gi_z: Math.round((result.z[i] as number) * 1e6) / 1e6,
      p: sig(result.p[i] as number),
      p_fdr: sig(result.pFdr[i] as number),
      bin: result.bin[i] as number,
    },
  };
}
