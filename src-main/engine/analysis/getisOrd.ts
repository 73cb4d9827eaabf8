/**
 * Hot spots: Getis-Ord Gi* on the incident counts of a square or hexagon grid in UTM metres.
 * Binary weights; a cell's neighbours are the cells whose centres lie within the distance band,
 * the cell itself included; z as Ord & Getis (1995); p two-sided from the normal; p_fdr by
 * Benjamini–Hochberg over all the cells computed; bin ±3/±2/±1 at p_fdr < 0.01/0.05/0.10.
 * Masked cells (outside the synced coverage) take no part: not neighbours, not in n, not reported.
 */
import type { UtmProjection } from '../../../src-shared/geo';
import {
  AnalysisTooLarge,
  count,
  length,
  MAX_GRID_CELLS,
  MAX_RESULT_BYTES,
  megabytes,
  smallestFitting,
} from './bounds';
import { countPerCell, coverageMask, Grid, type Coverage, type Extent, type GridKind } from './grid';
import { extentOf, project, requireEnough } from './points';
import type { Progress } from './progress';
import { benjaminiHochberg, twoSidedP } from './stats';

export type HotSpotOptions = {
  grid?: GridKind;
  cellSizeM?: number;
  distanceBandM?: number;
  coverage?: Coverage;
  onProgress?: Progress;
};

export type HotSpotParameters = {
  grid: GridKind;
  cell_size_m: number;
  distance_band_m: number;
  utm_epsg: number;
  incidents: number;
  cells: number;
  masked_cells: number;
  weights: 'binary, self included';
  fdr: 'Benjamini-Hochberg';
};

export type HotSpotResult = {
  grid: Grid;
  utm: UtmProjection;
  mask: Uint8Array;
  counts: Int32Array;
  z: Float64Array;
  p: Float64Array;
  pFdr: Float64Array;
  bin: Int8Array;
  parameters: HotSpotParameters;
};

/** About this many cells over the extent by default (never smaller than MIN_CELL_M). */
export const DEFAULT_CELLS = 2500;
export const MIN_CELL_M = 100;

export function defaultCellSize(kind: GridKind, width: number, height: number): number {
  const cellArea = (width * height) / DEFAULT_CELLS;
  // A flat-topped hexagon of flat-to-flat width w covers (√3/2)·w².
  const side = kind === 'square' ? Math.sqrt(cellArea) : Math.sqrt(cellArea / (Math.sqrt(3) / 2));
  return Math.max(MIN_CELL_M, side);
}

/** Bytes of one computed cell in the GeoJSON answer (hotSpotExport.ts; measured 289 and 339). */
const GEOJSON_BYTES_PER_CELL: Record<GridKind, number> = { square: 300, hexagon: 350 };

/**
 * Refuses a cell size whose grid over the extent exceeds MAX_GRID_CELLS, or whose answer (the
 * GeoJSON of every cell, empty ones included) would exceed MAX_RESULT_BYTES: before any cell is
 * allocated, naming the bound and the smallest cell that fits.
 */
export function checkHotSpotGrid(kind: GridKind, cellSize: number, extent: Extent): void {
  const cellsAt = (c: number) => Grid.over(kind, c, extent).size;
  const bytes = (cells: number) => cells * GEOJSON_BYTES_PER_CELL[kind];
  const fits = (c: number) => {
    const cells = cellsAt(c);
    return cells <= MAX_GRID_CELLS && bytes(cells) <= MAX_RESULT_BYTES;
  };
  if (fits(cellSize)) return;
  const cells = cellsAt(cellSize);
  const over: string[] = [];
  if (cells > MAX_GRID_CELLS) over.push(`more than the ${count(MAX_GRID_CELLS)} cells a grid may hold`);
  if (bytes(cells) > MAX_RESULT_BYTES)
    over.push(
      `an answer of about ${megabytes(bytes(cells))}, more than the ${megabytes(MAX_RESULT_BYTES)} an answer may take`,
    );
  throw new AnalysisTooLarge(
    `Hot spot analysis cannot use a ${length(cellSize)} m cell here: over these incidents it makes ${count(cells)} ${kind} cells, ${over.join(', and ')}. The smallest cell that fits is ${length(smallestFitting(fits, cellSize))} m.`,
  );
}

/** Gi* z of every cell (NaN where masked) for counts on a grid. */
export function giStar(grid: Grid, counts: ArrayLike<number>, mask: Uint8Array, band: number): Float64Array {
  const { cols, rows } = grid;
  let n = 0;
  let sum = 0;
  let sum2 = 0;
  for (let i = 0; i < grid.size; i++)
    if (mask[i]) {
      const v = counts[i] as number;
      n++;
      sum += v;
      sum2 += v * v;
    }
  const mean = sum / n;
  const s = Math.sqrt(sum2 / n - mean * mean);
  const offsets = grid.offsetsWithin(band);
  const z = new Float64Array(grid.size).fill(Number.NaN);
  for (let row = 0; row < rows; row++)
    for (let col = 0; col < cols; col++) {
      const i = row * cols + col;
      if (!mask[i]) continue;
      const off = offsets[col & 1] as Int32Array;
      let local = 0;
      let k = 0;
      for (let o = 0; o < off.length; o += 2) {
        const c = col + (off[o] as number);
        const r = row + (off[o + 1] as number);
        if (c < 0 || r < 0 || c >= cols || r >= rows) continue;
        const j = r * cols + c;
        if (!mask[j]) continue;
        local += counts[j] as number;
        k++;
      }
      const denom = s * Math.sqrt((n * k - k * k) / (n - 1));
      z[i] = denom > 0 ? (local - mean * k) / denom : 0;
    }
  return z;
}

export function binOf(z: number, pFdr: number): number {
  const level = pFdr < 0.01 ? 3 : pFdr < 0.05 ? 2 : pFdr < 0.1 ? 1 : 0;
  return z < 0 && level > 0 ? -level : level;
}

/** Gi* hot spots of points already in metres. */
export function hotSpotsOf(
  x: Float64Array,
  y: Float64Array,
  utm: UtmProjection,
  options: HotSpotOptions = {},
): HotSpotResult {
  requireEnough(x.length, 'Hot spot analysis');
  const kind = options.grid ?? 'square';
  const extent = extentOf(x, y);
  const cell =
    options.cellSizeM ?? defaultCellSize(kind, extent.maxX - extent.minX, extent.maxY - extent.minY);
  const band = options.distanceBandM ?? 2 * cell;
  checkHotSpotGrid(kind, cell, extent);
  const grid = Grid.over(kind, cell, extent);
  options.onProgress?.(0.1);
  const mask = coverageMask(grid, utm, options.coverage);
  const counts = countPerCell(grid, x, y);
  options.onProgress?.(0.4);
  const z = giStar(grid, counts, mask, band);
  options.onProgress?.(0.8);
  const p = new Float64Array(grid.size).fill(Number.NaN);
  let cells = 0;
  for (let i = 0; i < grid.size; i++)
    if (mask[i]) {
      p[i] = twoSidedP(z[i] as number);
      cells++;
    }
  const pFdr = benjaminiHochberg(p, mask);
  const bin = new Int8Array(grid.size);
  for (let i = 0; i < grid.size; i++) if (mask[i]) bin[i] = binOf(z[i] as number, pFdr[i] as number);
  options.onProgress?.(1);
  return {
    grid,
    utm,
    mask,
    counts,
    z,
    p,
    pFdr,
    bin,
    parameters: {
      grid: kind,
      cell_size_m: cell,
      distance_band_m: band,
      utm_epsg: utm.epsg,
      incidents: x.length,
      cells,
      masked_cells: grid.size - cells,
      weights: 'binary, self included',
      fdr: 'Benjamini-Hochberg',
    },
  };
}

/** Gi* hot spots of incidents in lat/lon, in the UTM zone of their centroid. */
export function hotSpots(lat: Float64Array, lon: Float64Array, options: HotSpotOptions = {}): HotSpotResult {
  requireEnough(lat.length, 'Hot spot analysis');
  const { utm, x, y } = project(lat, lon);
  return hotSpotsOf(x, y, utm, options);
}
