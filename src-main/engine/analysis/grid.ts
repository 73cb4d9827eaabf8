/**
 * Analysis grids in UTM metres: square cells with their origin at floor(min / cell) · cell of the
 * points' bounding box, or flat-topped hexagons whose `cellSize` is the flat-to-flat width.
 * Cells are numbered index = row · cols + col; row 0 is the southernmost, col 0 the westernmost.
 * Cells go back to lon/lat as GeoJSON rings, and cells outside the synced coverage can be masked.
 */
import { contains, type Shape, type UtmProjection } from '../../../src-shared/geo';

export type GridKind = 'square' | 'hexagon';
export type Extent = { minX: number; minY: number; maxX: number; maxY: number };

const SQRT3 = Math.sqrt(3);

export class Grid {
  /** Hexagon side (cellSize / √3); unused for squares. */
  private readonly side: number;

  private constructor(
    readonly kind: GridKind,
    readonly cellSize: number,
    readonly originX: number,
    readonly originY: number,
    readonly cols: number,
    readonly rows: number,
  ) {
    if (!(cellSize > 0)) throw new RangeError('The cell size must be a positive number of metres.');
    this.side = cellSize / SQRT3;
  }

  /** A grid of `cols` × `rows` cells whose cell (0, 0) starts (square) or is centred (hexagon) at the origin. */
  static sized(
    kind: GridKind,
    cellSize: number,
    originX: number,
    originY: number,
    cols: number,
    rows: number,
  ): Grid {
    return new Grid(kind, cellSize, originX, originY, cols, rows);
  }

  /** A grid covering `extent` (grown by `margin` metres on every side), origin at floor(min / cell) · cell. */
  static over(kind: GridKind, cellSize: number, extent: Extent, margin = 0): Grid {
    const c = cellSize;
    if (!(c > 0)) throw new RangeError('The cell size must be a positive number of metres.');
    const originX = Math.floor((extent.minX - margin) / c) * c;
    const originY = Math.floor((extent.minY - margin) / c) * c;
    if (kind === 'square')
      return new Grid(
        kind,
        c,
        originX,
        originY,
        Math.floor((extent.maxX + margin - originX) / c) + 1,
        Math.floor((extent.maxY + margin - originY) / c) + 1,
      );
    // Centres of column q at originX + 1.5·side·q; odd columns half a cell higher. One spare
    // column and row so the slanted edges of the last ones still hold every point.
    return new Grid(
      kind,
      c,
      originX,
      originY,
      Math.floor((extent.maxX + margin - originX) / ((1.5 * c) / SQRT3)) + 2,
      Math.floor((extent.maxY + margin - originY) / c) + 2,
    );
  }

  get size(): number {
    return this.cols * this.rows;
  }

  /** The cell holding (x, y), or -1 outside the grid. */
  cellOf(x: number, y: number): number {
    let col: number;
    let row: number;
    if (this.kind === 'square') {
      col = Math.floor((x - this.originX) / this.cellSize);
      row = Math.floor((y - this.originY) / this.cellSize);
    } else {
      // Axial coordinates of the flat-topped lattice, then cube rounding.
      const fq = (x - this.originX) / (1.5 * this.side);
      const fr = (y - this.originY) / this.cellSize - fq / 2;
      const fs = -fq - fr;
      let q = Math.round(fq);
      let r = Math.round(fr);
      const s = Math.round(fs);
      const dq = Math.abs(q - fq);
      const dr = Math.abs(r - fr);
      const ds = Math.abs(s - fs);
      if (dq > dr && dq > ds) q = -r - s;
      else if (dr > ds) r = -q - s;
      col = q;
      row = r + (q - (q & 1)) / 2;
    }
    if (col < 0 || row < 0 || col >= this.cols || row >= this.rows) return -1;
    return row * this.cols + col;
  }

  /** Centre of the cell at (col, row), metres. */
  centreX(col: number): number {
    return this.kind === 'square'
      ? this.originX + (col + 0.5) * this.cellSize
      : this.originX + 1.5 * this.side * col;
  }

  centreY(col: number, row: number): number {
    return this.kind === 'square'
      ? this.originY + (row + 0.5) * this.cellSize
      : this.originY + this.cellSize * (row + (col & 1) / 2);
  }

  /** The corners of a cell, counter-clockwise, in metres. */
  corners(index: number): [number, number][] {
    const col = index % this.cols;
    const row = (index - col) / this.cols;
    const cx = this.centreX(col);
    const cy = this.centreY(col, row);
    if (this.kind === 'square') {
      const h = this.cellSize / 2;
      return [
        [cx - h, cy - h],
        [cx + h, cy - h],
        [cx + h, cy + h],
        [cx - h, cy + h],
      ];
    }
    const out: [number, number][] = [];
    for (let k = 0; k < 6; k++) {
      const a = (Math.PI / 3) * k;
      out.push([cx + this.side * Math.cos(a), cy + this.side * Math.sin(a)]);
    }
    return out;
  }

  /** A cell as a closed GeoJSON ring of [lon, lat] (counter-clockwise, RFC 7946). */
  ringLonLat(index: number, utm: UtmProjection, digits = 7): [number, number][] {
    const f = 10 ** digits;
    const ring = this.corners(index).map(([x, y]): [number, number] => {
      const [lat, lon] = utm.inverse(x, y);
      return [Math.round(lon * f) / f, Math.round(lat * f) / f];
    });
    ring.push(ring[0] as [number, number]);
    return ring;
  }

  /**
   * Cell offsets (dCol, dRow pairs) whose centres lie within `band` metres of a cell's centre, the
   * cell itself included: [for even columns, for odd columns] (the same for squares).
   */
  offsetsWithin(band: number): [Int32Array, Int32Array] {
    const spacing = this.kind === 'square' ? this.cellSize : Math.min(this.cellSize, 1.5 * this.side);
    const reach = Math.ceil(band / spacing) + 1;
    const eps = this.cellSize * 1e-9;
    const forParity = (col0: number): Int32Array => {
      const out: number[] = [];
      const x0 = this.centreX(col0);
      const y0 = this.centreY(col0, reach);
      for (let dc = -reach; dc <= reach; dc++)
        for (let dr = -reach; dr <= reach; dr++) {
          const dx = this.centreX(col0 + dc) - x0;
          const dy = this.centreY(col0 + dc, reach + dr) - y0;
          if (Math.hypot(dx, dy) <= band + eps) out.push(dc, dr);
        }
      return Int32Array.from(out);
    };
    // Column 2·reach keeps the parity even and every neighbour at a non-negative column.
    return [forParity(2 * reach), forParity(2 * reach + 1)];
  }
}

/** Which places count as covered by the synced archive. */
export type Coverage = ((lat: number, lon: number) => boolean) | readonly Shape[];

/**
 * 1 for each cell whose centre lies in the coverage, 0 outside (masked: not computed, not drawn
 * as cold). No coverage given: every cell counts.
 */
export function coverageMask(grid: Grid, utm: UtmProjection, coverage?: Coverage): Uint8Array {
  const mask = new Uint8Array(grid.size);
  if (!coverage) return mask.fill(1);
  const covered =
    typeof coverage === 'function'
      ? coverage
      : (lat: number, lon: number) => coverage.some((shape) => contains(shape, lat, lon));
  for (let row = 0; row < grid.rows; row++)
    for (let col = 0; col < grid.cols; col++) {
      const [lat, lon] = utm.inverse(grid.centreX(col), grid.centreY(col, row));
      mask[row * grid.cols + col] = covered(lat, lon) ? 1 : 0;
    }
  return mask;
}

/** Incidents per cell (points outside the grid are not counted). */
export function countPerCell(grid: Grid, x: Float64Array, y: Float64Array): Int32Array {
  const counts = new Int32Array(grid.size);
  for (let i = 0; i < x.length; i++) {
    const c = grid.cellOf(x[i] as number, y[i] as number);
    if (c >= 0) counts[c]!++;
  }
  return counts;
}
