/**
 * Which tiles cover a set of boxes: each box grown by a margin (1 km by default), then every
 * Web Mercator tile it touches on zooms 0..maxZoom, as sorted PMTiles tile ids.
 */
import type { Box } from '../../../../src-shared/geo/bbox';
import { MAX_MERCATOR_LAT, tileIdOf, tileX, tileY } from '../../../../src-shared/pmtiles';
import { ExtractProblem } from './problems';

export { tileX, tileY };
const MAX_LAT = MAX_MERCATOR_LAT;
const KM_PER_DEG_LAT = 111.32;

export function withMargin(box: Box, km: number): Box {
  const dLat = km / KM_PER_DEG_LAT;
  const widest = Math.min(89, Math.max(Math.abs(box.minLat), Math.abs(box.maxLat)) + dLat);
  const dLon = km / (KM_PER_DEG_LAT * Math.cos((widest * Math.PI) / 180));
  return {
    minLat: Math.max(-MAX_LAT, box.minLat - dLat),
    maxLat: Math.min(MAX_LAT, box.maxLat + dLat),
    minLon: Math.max(-180, box.minLon - dLon),
    maxLon: Math.min(180, box.maxLon + dLon),
  };
}

export type TileRange = { z: number; minX: number; maxX: number; minY: number; maxY: number };

export function rangesOf(boxes: readonly Box[], minZoom: number, maxZoom: number): TileRange[] {
  const out: TileRange[] = [];
  for (let z = minZoom; z <= maxZoom; z++) {
    for (const b of boxes) {
      out.push({
        z,
        minX: tileX(b.minLon, z),
        maxX: tileX(b.maxLon, z),
        minY: tileY(b.maxLat, z),
        maxY: tileY(b.minLat, z),
      });
    }
  }
  return out;
}

/** An upper bound on the tile count (overlapping boxes counted twice): checked before enumerating. */
export const countUpperBound = (ranges: readonly TileRange[]): number =>
  ranges.reduce((n, r) => n + (r.maxX - r.minX + 1) * (r.maxY - r.minY + 1), 0);

/** The sorted, distinct tile ids covering the boxes; refuses more than `maxTiles`. */
export function tileIdsFor(
  boxes: readonly Box[],
  minZoom: number,
  maxZoom: number,
  maxTiles: number,
): number[] {
  const ranges = rangesOf(boxes, minZoom, maxZoom);
  const bound = countUpperBound(ranges);
  const ids = new Set<number>();
  for (const r of ranges) {
    for (let x = r.minX; x <= r.maxX; x++)
      for (let y = r.minY; y <= r.maxY; y++) ids.add(tileIdOf(r.z, x, y));
    if (ids.size > maxTiles) break;
  }
  if (ids.size > maxTiles) {
    throw new ExtractProblem(
      'too_many_tiles',
      `These areas need ${bound > ids.size ? `about ${bound.toLocaleString('en-US')}` : ids.size.toLocaleString('en-US')} tiles up to zoom ${maxZoom}; Blotter extracts at most ${maxTiles.toLocaleString('en-US')}. Lower the zoom or use smaller areas.`,
    );
  }
  return [...ids].sort((a, b) => a - b);
}

/** The box that holds all the boxes. */
export const unionBox = (boxes: readonly Box[]): Box => ({
  minLat: Math.min(...boxes.map((b) => b.minLat)),
  maxLat: Math.max(...boxes.map((b) => b.maxLat)),
  minLon: Math.min(...boxes.map((b) => b.minLon)),
  maxLon: Math.max(...boxes.map((b) => b.maxLon)),
});
