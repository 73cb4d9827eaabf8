/**
 * Indexes over a big ring's edges, so a region's test looks at the few edges near a point, not all
 * of them (a 250k-corner feature over the thousands of incidents in its box took seconds):
 * `RingBands` (even–odd point in ring, the edges by bands of latitude) and `EdgeGrid` (within a
 * distance of an edge, the edges by square cells in projected metres). Each gives the answer of the
 * plain loop over every edge (insidePolygon in polygon.ts; bufferedRegion's distance test): an
 * edge it skips is one that loop would have skipped too, and the crossings' parity, or whether any
 * edge is near, does not depend on the order the edges are looked at.
 */

/** Bands (or cells) per edge on average past which the index is made coarser. */
const MAX_SPREAD = 16;

/** A RingBands as typed arrays and numbers (made on one thread, used on another). */
export type RingBandsParts = {
  lats: Float64Array;
  lons: Float64Array;
  starts: Int32Array;
  edges: Int32Array;
  bands: number;
  lo: number;
  scale: number;
};

/** Monotone in `v`: a latitude inside an edge's range falls in a band the edge was filed in. */
const bandOf = (v: number, lo: number, scale: number, bands: number): number =>
  Math.min(bands - 1, Math.floor((v - lo) * scale));

/** Even–odd point in ring, the same answer as insidePolygon (polygon.ts) for the same corners. */
export class RingBands {
  constructor(readonly parts: RingBandsParts) {}

  static build(lats: Float64Array, lons: Float64Array): RingBands {
    const n = lats.length;
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < n; i++) {
      lo = Math.min(lo, lats[i] as number);
      hi = Math.max(hi, lats[i] as number);
    }
    let bands = Math.max(1, Math.min(1 << 16, n >> 3));
    // An edge counts for latitudes in [its lower end, its upper end): filed in every band those touch.
    const span = (i: number, scale: number): [number, number] => {
      const a = lats[i] as number;
      const c = lats[i === 0 ? n - 1 : i - 1] as number;
      return [bandOf(Math.min(a, c), lo, scale, bands), bandOf(Math.max(a, c), lo, scale, bands)];
    };
    let scale = 0;
    let counts = new Int32Array(0);
    for (;;) {
      scale = hi > lo ? bands / (hi - lo) : 0;
      counts = new Int32Array(bands + 1);
      let total = 0;
      for (let i = 0; i < n; i++) {
        const [b0, b1] = span(i, scale);
        for (let b = b0; b <= b1; b++) counts[b + 1]!++;
        total += b1 - b0 + 1;
      }
      if (total <= MAX_SPREAD * n || bands === 1) break;
      bands = Math.max(1, bands >> 2);
    }
    for (let b = 0; b < bands; b++) counts[b + 1]! += counts[b]!;
    const edges = new Int32Array(counts[bands]!);
    const at = counts.slice(0, bands);
    for (let i = 0; i < n; i++) {
      const [b0, b1] = span(i, scale);
      for (let b = b0; b <= b1; b++) edges[at[b]!++] = i;
    }
    return new RingBands({ lats, lons, starts: counts, edges, bands, lo, scale });
  }

  contains(lat: number, lon: number): boolean {
    const { lats, lons, starts, edges, lo, scale, bands } = this.parts;
    const b = bandOf(lat, lo, scale, bands);
    if (!(b >= 0)) return false; // below every edge (or NaN)
    const n = lats.length;
    let inside = false;
    for (let k = starts[b]!, end = starts[b + 1]!; k < end; k++) {
      const i = edges[k]!;
      const j = i === 0 ? n - 1 : i - 1;
      const aLat = lats[i] as number;
      const bLat = lats[j] as number;
      if (aLat > lat !== bLat > lat) {
        const aLon = lons[i] as number;
        const bLon = lons[j] as number;
        if (lon < ((bLon - aLon) * (lat - aLat)) / (bLat - aLat) + aLon) inside = !inside;
      }
    }
    return inside;
  }
}

/** Squared distance from (px, py) to the segment (ax, ay)–(bx, by), in the plane. */
export function segmentDistance2(
  px: number,
  py: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const ex = ax + t * dx - px;
  const ey = ay + t * dy - py;
  return ex * ex + ey * ey;
}

/** An EdgeGrid as typed arrays and numbers (made on one thread, used on another). */
export type EdgeGridParts = {
  x: Float64Array;
  y: Float64Array;
  metres: number;
  starts: Int32Array;
  edges: Int32Array;
  x0: number;
  y0: number;
  nx: number;
  ny: number;
  cell: number;
};

const cellOf = (v: number, origin: number, cell: number): number => Math.floor((v - origin) / cell);

/**
 * Whether a point is within `metres` of one of a ring's edges (x, y in metres; the ring closes
 * from its last corner to its first), looking only at the edges filed in the point's cell: each
 * edge is filed in every cell its box grown by the distance (and a hair) touches.
 */
export class EdgeGrid {
  constructor(readonly parts: EdgeGridParts) {}

  static build(x: Float64Array, y: Float64Array, metres: number): EdgeGrid {
    const n = x.length;
    const grow = metres * (1 + 1e-9) + 1e-6;
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < n; i++) {
      minX = Math.min(minX, x[i] as number);
      maxX = Math.max(maxX, x[i] as number);
      minY = Math.min(minY, y[i] as number);
      maxY = Math.max(maxY, y[i] as number);
    }
    const x0 = minX - grow;
    const y0 = minY - grow;
    const width = maxX - minX + 2 * grow;
    const height = maxY - minY + 2 * grow;
    let cell = Math.max(metres, width / 1024, height / 1024, 1e-3);
    const boxOf = (i: number): [number, number, number, number] => {
      const j = i === 0 ? n - 1 : i - 1;
      const [ax, bx, ay, by] = [x[i] as number, x[j] as number, y[i] as number, y[j] as number];
      return [
        cellOf(Math.min(ax, bx) - grow, x0, cell),
        cellOf(Math.max(ax, bx) + grow, x0, cell),
        cellOf(Math.min(ay, by) - grow, y0, cell),
        cellOf(Math.max(ay, by) + grow, y0, cell),
      ];
    };
    let nx = 1;
    let ny = 1;
    let counts = new Int32Array(0);
    for (;;) {
      // A cell to spare each way: an edge's grown box, rounded, never reaches past the grid.
      nx = Math.floor(width / cell) + 2;
      ny = Math.floor(height / cell) + 2;
      counts = new Int32Array(nx * ny + 1);
      let total = 0;
      for (let i = 0; i < n; i++) {
        const [cx0, cx1, cy0, cy1] = boxOf(i);
        for (let cy = cy0; cy <= cy1; cy++) for (let cx = cx0; cx <= cx1; cx++) counts[cy * nx + cx + 1]!++;
        total += (cx1 - cx0 + 1) * (cy1 - cy0 + 1);
      }
      if (total <= MAX_SPREAD * n || (nx <= 2 && ny <= 2)) break;
      cell *= 2;
    }
    for (let c = 0; c < nx * ny; c++) counts[c + 1]! += counts[c]!;
    const edges = new Int32Array(counts[nx * ny]!);
    const at = counts.slice(0, nx * ny);
    for (let i = 0; i < n; i++) {
      const [cx0, cx1, cy0, cy1] = boxOf(i);
      for (let cy = cy0; cy <= cy1; cy++) for (let cx = cx0; cx <= cx1; cx++) edges[at[cy * nx + cx]!++] = i;
    }
    return new EdgeGrid({ x, y, metres, starts: counts, edges, x0, y0, nx, ny, cell });
  }

  near(px: number, py: number): boolean {
    const { x, y, metres, starts, edges, x0, y0, nx, ny, cell } = this.parts;
    const cx = cellOf(px, x0, cell);
    const cy = cellOf(py, y0, cell);
    if (!(cx >= 0 && cy >= 0 && cx < nx && cy < ny)) return false; // farther than any edge's grown box
    const n = x.length;
    const d2 = metres * metres;
    const c = cy * nx + cx;
    for (let k = starts[c]!, end = starts[c + 1]!; k < end; k++) {
      const i = edges[k]!;
      const j = i === 0 ? n - 1 : i - 1;
      const ax = x[j] as number;
      const ay = y[j] as number;
      const bx = x[i] as number;
      const by = y[i] as number;
      if (
        (px < ax && px < bx && ax - px > metres && bx - px > metres) ||
        (px > ax && px > bx && px - ax > metres && px - bx > metres)
      )
        continue;
      if (
        (py < ay && py < by && ay - py > metres && by - py > metres) ||
        (py > ay && py > by && py - ay > metres && py - by > metres)
      )
        continue;
      if (segmentDistance2(px, py, ax, ay, bx, by) <= d2) return true;
    }
    return false;
  }
}
