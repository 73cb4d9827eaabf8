/**
 * Kernel density: the quartic kernel K(d) = 3/(π r²)·(1 − (d/r)²)² summed at each cell centre of
 * a square grid over the incidents' extent (UTM metres), reported in incidents per square mile.
 * The default search radius is ArcGIS Kernel Density's: 0.9·min(SD, √(1/ln 2)·Dm)·n^−0.2 (SD the
 * standard distance, Dm the median distance to the mean centre); the default cell is r/10.
 */
import { METRES_PER_MILE, type UtmProjection } from '../../../src-shared/geo';
import {
  AnalysisTooLarge,
  count,
  length,
  MAX_GRID_CELLS,
  MAX_RESULT_BYTES,
  megabytes,
  smallestFitting,
} from './bounds';
import { coverageMask, Grid, type Coverage, type Extent } from './grid';
import { extentOf, project, requireEnough } from './points';
import type { Progress } from './progress';

export type KdeOptions = {
  radiusM?: number;
  cellSizeM?: number;
  coverage?: Coverage;
  /** The answer asked for (kdeExport.ts), for its size: a raster (default), GeoJSON or GeoTIFF. */
  format?: KdeFormat;
  onProgress?: Progress;
};

export type KdeFormat = 'raster' | 'geojson' | 'geotiff';

export type KdeParameters = {
  kernel: 'quartic';
  radius_m: number;
  radius_default: boolean;
  cell_size_m: number;
  utm_epsg: number;
  incidents: number;
  units: 'incidents per square mile';
};

export type KdeResult = {
  grid: Grid;
  utm: UtmProjection;
  /** Per cell, incidents per square mile; 0 where masked. */
  density: Float64Array;
  /** 1 inside the coverage, 0 masked. */
  mask: Uint8Array;
  max: number;
  parameters: KdeParameters;
};

const SQ_M_PER_SQ_MI = METRES_PER_MILE * METRES_PER_MILE;

/** ArcGIS's default search radius for points in metres (Silverman's rule, spatial variant). */
export function defaultRadius(x: Float64Array, y: Float64Array): number {
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i] as number;
    my += y[i] as number;
  }
  mx /= n;
  my /= n;
  const d = new Float64Array(n);
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const dx = (x[i] as number) - mx;
    const dy = (y[i] as number) - my;
    ss += dx * dx + dy * dy;
    d[i] = Math.sqrt(dx * dx + dy * dy);
  }
  const sd = Math.sqrt(ss / n);
  d.sort();
  const median = n % 2 ? (d[(n - 1) / 2] as number) : ((d[n / 2 - 1] as number) + (d[n / 2] as number)) / 2;
  return 0.9 * Math.min(sd, Math.sqrt(1 / Math.LN2) * median) * n ** -0.2;
}

/**
 * Bytes of the answer for a grid: a lon/lat raster of about the grid's cells (4 bytes each, as
 * base64; measured 2 % more pixels than cells), or the GeoJSON of the cells with density > 0 (at
 * most the cells within the radius of some incident; measured 241 bytes each).
 */
function answerBytes(format: KdeFormat, cells: number, n: number, radius: number, cell: number): number {
  if (format !== 'geojson') return cells * 4 * (4 / 3) * 1.1;
  const reach = 2 * Math.ceil(radius / cell) + 1;
  return Math.min(cells, n * reach * reach) * 250;
}

/**
 * Refuses a cell size whose grid over the extent exceeds MAX_GRID_CELLS, or whose answer would
 * exceed MAX_RESULT_BYTES: before the grid is allocated, naming the bound and the smallest cell
 * that fits.
 */
export function checkKdeGrid(
  cellSize: number,
  extent: Extent,
  n: number,
  radius: number,
  format: KdeFormat = 'raster',
): void {
  const cellsAt = (c: number) => Grid.over('square', c, extent).size;
  const fits = (c: number) => {
    const cells = cellsAt(c);
    return cells <= MAX_GRID_CELLS && answerBytes(format, cells, n, radius, c) <= MAX_RESULT_BYTES;
  };
  if (fits(cellSize)) return;
  const cells = cellsAt(cellSize);
  const bytes = answerBytes(format, cells, n, radius, cellSize);
  const over: string[] = [];
  if (cells > MAX_GRID_CELLS) over.push(`more than the ${count(MAX_GRID_CELLS)} cells a grid may hold`);
  if (bytes > MAX_RESULT_BYTES)
    over.push(
      `an answer of about ${megabytes(bytes)}, more than the ${megabytes(MAX_RESULT_BYTES)} an answer may take`,
    );
  throw new AnalysisTooLarge(
    `Kernel density cannot use a ${length(cellSize)} m cell here: over these incidents it makes ${count(cells)} cells, ${over.join(', and ')}. The smallest cell that fits is ${length(smallestFitting(fits, cellSize))} m.`,
  );
}

/** Kernel density of points already in metres. */
export function kdeOf(
  x: Float64Array,
  y: Float64Array,
  utm: UtmProjection,
  options: KdeOptions = {},
): KdeResult {
  const n = x.length;
  requireEnough(n, 'Kernel density');
  let r = options.radiusM ?? defaultRadius(x, y);
  if (!(r > 0)) r = 100; // every point at one place: no spread to measure
  const cell = options.cellSizeM ?? r / 10;
  const extent = extentOf(x, y);
  checkKdeGrid(cell, extent, n, r, options.format);
  const grid = Grid.over('square', cell, extent);
  const { cols, rows, originX, originY } = grid;
  const acc = new Float64Array(grid.size);
  const r2 = r * r;
  const inv = 1 / r2;
  const step = 1 << 16;
  for (let i = 0; i < n; i++) {
    const px = x[i] as number;
    const py = y[i] as number;
    // Cell centres within r: originX + (c + 0.5)·cell ∈ [px − r, px + r].
    const c0 = Math.max(0, Math.ceil((px - r - originX) / cell - 0.5));
    const c1 = Math.min(cols - 1, Math.floor((px + r - originX) / cell - 0.5));
    const r0 = Math.max(0, Math.ceil((py - r - originY) / cell - 0.5));
    const r1 = Math.min(rows - 1, Math.floor((py + r - originY) / cell - 0.5));
    for (let row = r0; row <= r1; row++) {
      const dy = originY + (row + 0.5) * cell - py;
      const dy2 = dy * dy;
      const base = row * cols;
      for (let col = c0; col <= c1; col++) {
        const dx = originX + (col + 0.5) * cell - px;
        const d2 = dx * dx + dy2;
        if (d2 < r2) {
          const t = 1 - d2 * inv;
          acc[base + col]! += t * t;
        }
      }
    }
    if (options.onProgress && (i + 1) % step === 0) options.onProgress((i + 1) / n);
  }
  const mask = coverageMask(grid, utm, options.coverage);
  options.onProgress?.(1);
  const scale = (3 / (Math.PI * r2)) * SQ_M_PER_SQ_MI;
  let max = 0;
  for (let k = 0; k < acc.length; k++) {
    const v = mask[k] ? (acc[k] as number) * scale : 0;
    acc[k] = v;
    if (v > max) max = v;
  }
  return {
    grid,
    utm,
    density: acc,
    mask,
    max,
    parameters: {
      kernel: 'quartic',
      radius_m: r,
      radius_default: options.radiusM === undefined,
      cell_size_m: cell,
      utm_epsg: utm.epsg,
      incidents: n,
      units: 'incidents per square mile',
    },
  };
}

/** Kernel density of incidents in lat/lon, in the UTM zone of their centroid. */
export function kernelDensity(lat: Float64Array, lon: Float64Array, options: KdeOptions = {}): KdeResult {
  requireEnough(lat.length, 'Kernel density');
  const { utm, x, y } = project(lat, lon);
  return kdeOf(x, y, utm, options);
}
