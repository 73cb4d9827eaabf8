/**
 * Tiles: the degree-space circles the live search is asked about. Each tile circumscribes a
 * rectangular cell; splitting a tile gives the four quadrant cells, whose circles lie inside the
 * parent cell's circumscribed circle (each quadrant circle reaches at most the parent's
 * half-diagonal from its centre). Because a degree-space circle lies inside the ground circle of the
 * same nominal radius, covering an area in degree space covers it whichever way the server measures.
 */
import { shapeBox, touchesBox, type Box, type Shape } from '../../../src-shared/geo';

export type Tile = {
  lat: number;
  lon: number;
  /** Radius sent as `radius`, degrees. */
  radius: number;
  cell: Box;
  depth: number;
};

/** The spec recommends radii of 0.01 degrees or less. */
export const STANDARD_RADIUS = 0.01;
/** Below this, circles hold a single block point anyway (block points lie ~0.0008° apart). */
export const MIN_RADIUS = 0.0004;
/** The largest tile we ever ask for (the spec: larger radii respond more slowly; no maximum stated). */
export const MAX_RADIUS = 0.1;

const DECIMALS = 6;
const round = (x: number): number => Number(x.toFixed(DECIMALS));
/** Radii are rounded up, and widened by the rounding of the centre, so the sent circle still covers. */
const roundUp = (x: number): number => Math.ceil(x * 10 ** DECIMALS) / 10 ** DECIMALS + 10 ** -DECIMALS;

/** The circle circumscribing a cell (or a given radius around the cell's centre). */
export function tileOf(cell: Box, depth = 0, radius?: number): Tile {
  const lat = round((cell.minLat + cell.maxLat) / 2);
  const lon = round((cell.minLon + cell.maxLon) / 2);
  const half = Math.hypot(cell.maxLat - cell.minLat, cell.maxLon - cell.minLon) / 2;
  return { lat, lon, radius: roundUp(radius ?? half), cell, depth };
}

export const tileKey = (t: Pick<Tile, 'lat' | 'lon' | 'radius'>): string =>
  `${t.lat.toFixed(DECIMALS)},${t.lon.toFixed(DECIMALS)},${t.radius.toFixed(DECIMALS)}`;

/** The four quadrant tiles of a tile's cell that still reach the area. */
export function splitTile(t: Tile, shape: Shape): Tile[] {
  const { minLat, maxLat, minLon, maxLon } = t.cell;
  const midLat = (minLat + maxLat) / 2;
  const midLon = (minLon + maxLon) / 2;
  const cells: Box[] = [
    { minLat, maxLat: midLat, minLon, maxLon: midLon },
    { minLat, maxLat: midLat, minLon: midLon, maxLon },
    { minLat: midLat, maxLat, minLon, maxLon: midLon },
    { minLat: midLat, maxLat, minLon: midLon, maxLon },
  ];
  return cells.filter((c) => touchesBox(shape, c)).map((c) => tileOf(c, t.depth + 1));
}

export const canSplit = (t: Tile): boolean => t.radius / 2 >= MIN_RADIUS;

/** A grid of square cells whose circumscribed circles have radius `radius`, over the area. */
export function gridTiles(shape: Shape, radius = STANDARD_RADIUS): Tile[] {
  const box = shapeBox(shape);
  const side = radius * Math.SQRT2;
  const cols = Math.max(1, Math.ceil((box.maxLon - box.minLon) / side));
  const rows = Math.max(1, Math.ceil((box.maxLat - box.minLat) / side));
  const lon0 = (box.minLon + box.maxLon) / 2 - (cols * side) / 2;
  const lat0 = (box.minLat + box.maxLat) / 2 - (rows * side) / 2;
  const tiles: Tile[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const cell = {
        minLat: lat0 + r * side,
        maxLat: lat0 + (r + 1) * side,
        minLon: lon0 + c * side,
        maxLon: lon0 + (c + 1) * side,
      };
      if (touchesBox(shape, cell)) tiles.push(tileOf(cell));
    }
  }
  return tiles;
}

/**
 * One circle around the whole area (its cell is the area's bounding box): for a ground circle the
 * degree circle of its widest longitude extent, for a polygon the farthest vertex from the box centre.
 */
export function coveringTile(shape: Shape): Tile {
  const box = shapeBox(shape);
  if (shape.kind === 'circle') {
    const reach = Math.max(box.maxLat - shape.lat, box.maxLon - shape.lon) * 1.002;
    return { ...tileOf(box, 0, reach), lat: round(shape.lat), lon: round(shape.lon) };
  }
  const t = tileOf(box);
  const reach = Math.max(...shape.points.map(([lat, lon]) => Math.hypot(lat - t.lat, lon - t.lon)));
  return tileOf(box, 0, reach);
}

/** The first tiling of an area with no local data: one circle when it is small, else the standard grid. */
export function rootTiles(shape: Shape, radius = STANDARD_RADIUS): Tile[] {
  const one = coveringTile(shape);
  return one.radius <= radius ? [one] : gridTiles(shape, radius);
}

/**
 * A tiling planned from a cost estimate (requests a tile would need, from the local density): start
 * from one circle and split a tile into its quadrants only while the quadrants together are cheaper.
 */
export function densityTiles(shape: Shape, cost: (t: Tile) => number): Tile[] {
  const start = coveringTile(shape);
  const queue = start.radius <= MAX_RADIUS ? [start] : gridTiles(shape, MAX_RADIUS / 2);
  const out: Tile[] = [];
  while (queue.length > 0) {
    const t = queue.pop() as Tile;
    const children = canSplit(t) ? splitTile(t, shape) : [];
    const split =
      t.radius > MAX_RADIUS ||
      (children.length > 0 && children.reduce((sum, c) => sum + cost(c), 0) < cost(t));
    if (split) queue.push(...children);
    else out.push(t);
  }
  return out;
}

/** Whether a point is inside the tile's degree circle. */
export const inTile = (t: Pick<Tile, 'lat' | 'lon' | 'radius'>, lat: number, lon: number): boolean =>
  Math.hypot(lat - t.lat, lon - t.lon) <= t.radius;
