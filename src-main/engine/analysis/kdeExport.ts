/**
 * Kernel density out of Blotter: a GeoJSON grid (one polygon per cell with density > 0, in
 * lon/lat) or a GeoTIFF in EPSG:4326 (nodata 0). The raster's pixels are about the cell size; each
 * takes the density of the UTM cell holding its centre (nearest neighbour).
 */
import { RAD } from '../../../src-shared/geo';
import { writeGeoTiff, type GeoRaster } from './geotiff';
import type { KdeParameters, KdeResult } from './kde';

/** The provenance every export carries: the analysis's parameters and the caller's (filters, coverage). */
export type Provenance = Record<string, unknown>;

export type GridFeatureCollection<P> = {
  type: 'FeatureCollection';
  parameters: P;
  features: {
    type: 'Feature';
    geometry: { type: 'Polygon'; coordinates: [number, number][][] };
    properties: Record<string, number | boolean | null>;
  }[];
};

export type GridFeature = GridFeatureCollection<unknown>['features'][number];

export function kdeGeoJson(
  result: KdeResult,
  provenance: Provenance = {},
): GridFeatureCollection<KdeParameters & Provenance> {
  const features: GridFeature[] = [];
  for (let k = 0; k < result.density.length; k++) {
    const f = kdeFeature(result, k);
    if (f) features.push(f);
  }
  return { type: 'FeatureCollection', parameters: { ...result.parameters, ...provenance }, features };
}

/** Cell k as a GeoJSON feature, or null when its density is 0. */
export function kdeFeature({ grid, utm, density }: KdeResult, k: number): GridFeature | null {
  const v = density[k] as number;
  if (!(v > 0)) return null;
  const col = k % grid.cols;
  return {
    type: 'Feature',
    geometry: { type: 'Polygon', coordinates: [grid.ringLonLat(k, utm)] },
    properties: { row: (k - col) / grid.cols, col, density: Math.round(v * 1000) / 1000 },
  };
}

const METRES_PER_DEGREE_LAT = 111_132;

/** The density resampled onto a lon/lat raster (EPSG:4326, nodata 0). */
export function kdeRaster(result: KdeResult): GeoRaster {
  const { grid, utm, density } = result;
  let west = Infinity;
  let east = -Infinity;
  let south = Infinity;
  let north = -Infinity;
  const x0 = grid.originX;
  const y0 = grid.originY;
  const x1 = x0 + grid.cols * grid.cellSize;
  const y1 = y0 + grid.rows * grid.cellSize;
  // The grid's outline, sampled along its edges (a UTM rectangle is slightly curved in lon/lat).
  for (let k = 0; k <= 16; k++) {
    const fx = x0 + ((x1 - x0) * k) / 16;
    const fy = y0 + ((y1 - y0) * k) / 16;
    for (const [x, y] of [
      [fx, y0],
      [fx, y1],
      [x0, fy],
      [x1, fy],
    ] as const) {
      const [lat, lon] = utm.inverse(x, y);
      west = Math.min(west, lon);
      east = Math.max(east, lon);
      south = Math.min(south, lat);
      north = Math.max(north, lat);
    }
  }
  const yRes = grid.cellSize / METRES_PER_DEGREE_LAT;
  const xRes = grid.cellSize / (METRES_PER_DEGREE_LAT * Math.cos(((south + north) / 2) * RAD));
  const width = Math.max(1, Math.ceil((east - west) / xRes));
  const height = Math.max(1, Math.ceil((north - south) / yRes));
  const data = new Float32Array(width * height);
  for (let row = 0; row < height; row++) {
    const lat = north - (row + 0.5) * yRes;
    for (let col = 0; col < width; col++) {
      const [x, y] = utm.forward(lat, west + (col + 0.5) * xRes);
      const cell = grid.cellOf(x, y);
      data[row * width + col] = cell >= 0 ? (density[cell] as number) : 0;
    }
  }
  return { width, height, data, west, north, xRes, yRes, nodata: 0 };
}

export const kdeGeoTiff = (result: KdeResult): Uint8Array => writeGeoTiff(kdeRaster(result));
