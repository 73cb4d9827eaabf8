/**
 * The analyses as messages a helper thread can take and give back: a request names the analysis
 * and carries its columns (typed arrays, transferred) and options; the answer is plain data
 * (grids and projections as their numbers), turned back into classes by `revive`.
 */
import { UtmProjection, type Shape } from '../../../src-shared/geo';
import { compStat, type CompStatInput, type CompStatResult } from './compstat';
import { hotSpots, type HotSpotOptions, type HotSpotResult } from './getisOrd';
import { Grid, type GridKind } from './grid';
import { kernelDensity, type KdeOptions, type KdeResult } from './kde';
import { nearRepeat, type KnoxOptions, type KnoxResult } from './knox';
import { kdeImage, type KdeImage } from './outputs';
import type { Progress } from './progress';
import { repeatLocations, type RepeatLocations } from './repeatLocations';

type Plain<O> = Omit<O, 'onProgress' | 'coverage' | 'signal'> & { coverage?: Shape[] };
type LatLonColumns = { lat: Float64Array; lon: Float64Array };
type WithDays = LatLonColumns & { day: Int32Array };

export type AnalysisRequest =
  | { kind: 'kde'; columns: LatLonColumns; options: Plain<KdeOptions> }
  | { kind: 'hotspots'; columns: LatLonColumns; options: Plain<HotSpotOptions> }
  | { kind: 'nearRepeat'; columns: WithDays; options: Plain<KnoxOptions> }
  | { kind: 'repeatLocations'; columns: WithDays; distanceM: number }
  | { kind: 'compstat'; input: CompStatInput }
  /** As kde, answered as the contract's raster or GeoTIFF (outputs.ts), built on the thread. */
  | {
      kind: 'kdeImage';
      columns: LatLonColumns;
      options: Plain<KdeOptions> & { format: 'raster' | 'geotiff' };
    };

export type AnalysisResultOf = {
  kde: KdeResult;
  hotspots: HotSpotResult;
  nearRepeat: KnoxResult;
  repeatLocations: RepeatLocations;
  compstat: CompStatResult;
  kdeImage: KdeImage;
};
export type AnalysisResult = AnalysisResultOf[keyof AnalysisResultOf];

type PlainGrid = {
  kind: GridKind;
  cellSize: number;
  originX: number;
  originY: number;
  cols: number;
  rows: number;
};
type PlainUtm = { zone: number; south: boolean };
/** What crosses the thread boundary: results with grid and projection as numbers. */
export type WireResult =
  | { kind: 'kde' | 'hotspots'; value: Record<string, unknown>; grid: PlainGrid; utm: PlainUtm }
  | {
      kind: 'nearRepeat' | 'repeatLocations' | 'compstat' | 'kdeImage';
      value: unknown;
    };

/** Runs one request in this thread. */
export function runRequest(request: AnalysisRequest, onProgress?: Progress): AnalysisResult {
  switch (request.kind) {
    case 'kde':
      return kernelDensity(request.columns.lat, request.columns.lon, { ...request.options, onProgress });
    case 'hotspots':
      return hotSpots(request.columns.lat, request.columns.lon, { ...request.options, onProgress });
    case 'nearRepeat':
      return nearRepeat(request.columns.lat, request.columns.lon, request.columns.day, {
        ...request.options,
        onProgress,
      });
    case 'repeatLocations': {
      const { lat, lon, day } = request.columns;
      return repeatLocations(lat, lon, day, request.distanceM);
    }
    case 'compstat':
      return compStat(request.input);
    case 'kdeImage': {
      const { columns, options } = request;
      const result = kernelDensity(columns.lat, columns.lon, { ...options, onProgress });
      return kdeImage(result, options.format);
    }
  }
}

export function toWire(kind: AnalysisRequest['kind'], result: AnalysisResult): WireResult {
  if (kind === 'kde' || kind === 'hotspots') {
    const { grid, utm, ...value } = result as KdeResult | HotSpotResult;
    const { cellSize, originX, originY, cols, rows } = grid;
    return {
      kind,
      value,
      grid: { kind: grid.kind, cellSize, originX, originY, cols, rows },
      utm: { zone: utm.zone, south: utm.south },
    };
  }
  return { kind, value: result } as WireResult;
}

export function revive(wire: WireResult): AnalysisResult {
  if (wire.kind === 'kde' || wire.kind === 'hotspots') {
    const g = wire.grid;
    return {
      ...wire.value,
      grid: Grid.sized(g.kind, g.cellSize, g.originX, g.originY, g.cols, g.rows),
      utm: new UtmProjection(wire.utm.zone, wire.utm.south),
    } as unknown as AnalysisResult;
  }
  return wire.value as AnalysisResult;
}

/** The typed arrays of a request, to transfer rather than copy. */
export function transferables(request: AnalysisRequest): ArrayBuffer[] {
  const arrays =
    request.kind === 'compstat'
      ? [request.input.day, request.input.type]
      : Object.values(request.columns as Record<string, ArrayBufferView>);
  return [...new Set(arrays.map((a) => a.buffer as ArrayBuffer))];
}
