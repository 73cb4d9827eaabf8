/**
 * The answers of the grid analyses as the contract carries them, built off the engine's call path
 * (issue 31): a kernel density's raster (base64 Float32) or GeoTIFF on the helper thread (jobs.ts;
 * resampling and base64 took the engine thread ~0.4 s), and the GeoJSON grids (hot spots, a
 * kernel density's cells) on the engine thread in slices that yield — as objects they cross a
 * thread boundary slower than they are built (a 50 MB hot spot GeoJSON: ~2.7 s to copy, ~1.4 s
 * to build), while the typed arrays they are built from cross at once.
 */
import type { KdeOutput } from '../../../src-shared/analysis';
import { yieldToEventLoop } from '../eventLoop';
import type { HotSpotParameters, HotSpotResult } from './getisOrd';
import { hotSpotFeature } from './hotSpotExport';
import type { KdeParameters, KdeResult } from './kde';
import {
  kdeFeature,
  kdeGeoTiff,
  kdeRaster,
  type GridFeature,
  type GridFeatureCollection,
  type Provenance,
} from './kdeExport';

export type KdeImage = Pick<KdeOutput, 'raster' | 'geotiffBase64'> & {
  parameters: KdeParameters;
  max: number;
};

/** The density as the view's raster or a GeoTIFF, both base64 (built on the helper thread). */
export function kdeImage(result: KdeResult, format: 'raster' | 'geotiff'): KdeImage {
  const base = { parameters: result.parameters, max: result.max };
  if (format === 'geotiff')
    return { ...base, geotiffBase64: Buffer.from(kdeGeoTiff(result)).toString('base64') };
  const r = kdeRaster(result);
  const { width, height, west, north, xRes, yRes } = r;
  const bytes = Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength);
  return {
    ...base,
    raster: { width, height, west, north, xRes, yRes, dataBase64: bytes.toString('base64') },
  };
}

/** A slice of work between turns of the event loop. */
const SLICE_MS = 20;

/** The features of cells 0…n−1 (null: no feature), a turn of the event loop every ~20 ms. */
async function slicedFeatures(
  n: number,
  featureOf: (k: number) => GridFeature | null,
  pause: () => Promise<void>,
): Promise<GridFeature[]> {
  const features: GridFeature[] = [];
  let sliceStart = performance.now();
  for (let k = 0; k < n; k++) {
    const f = featureOf(k);
    if (f) features.push(f);
    if ((k & 1023) === 1023 && performance.now() - sliceStart > SLICE_MS) {
      await pause();
      sliceStart = performance.now();
    }
  }
  return features;
}

/** kdeGeoJson (kdeExport.ts), yielding as it goes. */
export async function kdeGeoJsonSliced(
  result: KdeResult,
  provenance: Provenance,
  pause: () => Promise<void> = yieldToEventLoop,
): Promise<GridFeatureCollection<KdeParameters & Provenance>> {
  const features = await slicedFeatures(result.density.length, (k) => kdeFeature(result, k), pause);
  return { type: 'FeatureCollection', parameters: { ...result.parameters, ...provenance }, features };
}

/** hotSpotGeoJson (hotSpotExport.ts), yielding as it goes. */
export async function hotSpotGeoJsonSliced(
  result: HotSpotResult,
  provenance: Provenance,
  pause: () => Promise<void> = yieldToEventLoop,
): Promise<GridFeatureCollection<HotSpotParameters & Provenance>> {
  const features = await slicedFeatures(result.grid.size, (i) => hotSpotFeature(result, i), pause);
  return { type: 'FeatureCollection', parameters: { ...result.parameters, ...provenance }, features };
}
