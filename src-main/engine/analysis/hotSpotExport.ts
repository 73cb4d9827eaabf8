/**
 * Hot spots as GeoJSON: every cell the statistic was computed over (empty ones included; masked
 * cells were not computed and are left out) as a lon/lat polygon with row, col, count, gi_z, p,
 * p_fdr and bin, and the parameters (plus the caller's filters and coverage) at the top level.
 */
import type { HotSpotParameters, HotSpotResult } from './getisOrd';
import type { GridFeatureCollection, Provenance } from './kdeExport';

const sig = (v: number): number => Number(v.toPrecision(6));

export function hotSpotGeoJson(
  result: HotSpotResult,
  provenance: Provenance = {},
): GridFeatureCollection<HotSpotParameters & Provenance> {
  const { grid, utm } = result;
  const features: GridFeatureCollection<HotSpotParameters>['features'] = [];
  for (let i = 0; i < grid.size; i++) {
    if (!result.mask[i]) continue;
    const col = i % grid.cols;
    features.push({
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
    });
  }
  return { type: 'FeatureCollection', parameters: { ...result.parameters, ...provenance }, features };
}
