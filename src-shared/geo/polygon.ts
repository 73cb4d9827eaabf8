/**
 * Polygons as rings of [lat, lon] (closed implicitly): point inside, self-intersection, centroid,
 * and whether a ring reaches a box. Lat/lon are treated as plane coordinates: fine at city scale.
 */
import { boxOfPoints, inBox, type Box, type LatLon } from './bbox';
import { sweepSelfIntersects } from './sweepCrossing';

type Columns = { lats: Float64Array; lons: Float64Array };
/** A ring's coordinates as two columns, kept per ring: the even–odd loop runs ~5× faster on them. */
const columnsByRing = new WeakMap<readonly LatLon[], Columns>();

function columnsOf(ring: readonly LatLon[]): Columns {
  let c = columnsByRing.get(ring);
  if (!c || c.lats.length !== ring.length) {
    c = { lats: Float64Array.from(ring, (p) => p[0]), lons: Float64Array.from(ring, (p) => p[1]) };
    columnsByRing.set(ring, c);
  }
  return c;
}

/**
 * Even–odd rule; points exactly on an edge may fall either way. A ring is read once and remembered
 * (by identity): change a ring's corners by making a new one, not by editing it in place.
 */
export function insidePolygon(lat: number, lon: number, ring: readonly LatLon[]): boolean {
  const { lats, lons } = columnsOf(ring);
  const n = lats.length;
  let inside = false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
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

const orient = (a: LatLon, b: LatLon, c: LatLon): number =>
  Math.sign((b[1] - a[1]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[1] - a[1]));

function onSegment(a: LatLon, b: LatLon, p: LatLon): boolean {
  return (
    Math.min(a[0], b[0]) <= p[0] &&
    p[0] <= Math.max(a[0], b[0]) &&
    Math.min(a[1], b[1]) <= p[1] &&
    p[1] <= Math.max(a[1], b[1])
  );
}

/** Whether segments ab and cd share a point. */
export function segmentsIntersect(a: LatLon, b: LatLon, c: LatLon, d: LatLon): boolean {
  const o1 = orient(a, b, c);
  const o2 = orient(a, b, d);
  const o3 = orient(c, d, a);
  const o4 = orient(c, d, b);
  if (o1 !== o2 && o3 !== o4) return true;
  return (
    (o1 === 0 && onSegment(a, b, c)) ||
    (o2 === 0 && onSegment(a, b, d)) ||
    (o3 === 0 && onSegment(c, d, a)) ||
    (o4 === 0 && onSegment(c, d, b))
  );
}

/**
 * Whether any two non-adjacent edges of the closed ring touch (`segmentsIntersect`: crossing,
 * touching or overlapping; the two edges at each corner are adjacent and never compared).
 *
 * The edge grid below answers first: about linear, and the fastest on the rings files hold (a wavy
 * ring of 250,000 corners compares ~1.4 pairs an edge). A ring that makes it compare more than
 * about two pairs an edge — dense thin spikes side by side, as a zig-zag star's, which no grid
 * separates — goes to a sweep line instead (sweepCrossing.ts: about n log n whatever the shape);
 * when one of the sweep's orientation signs is too close to zero to trust, the grid finishes.
 * All three give the all-pairs answer.
 */
export function selfIntersects(ring: readonly LatLon[]): boolean {
  return (
    gridSelfIntersects(ring, GRID_PAIRS_PER_EDGE * ring.length + GRID_PAIRS_SLACK) ??
    sweepSelfIntersects(ring, segmentsIntersect) ??
    gridSelfIntersects(ring) === true
  );
}

/** Pairs of edges per edge the grid may compare before the sweep takes over. */
const GRID_PAIRS_PER_EDGE = 2;
/** And beyond that, so a small ring (a comb of 1,000 teeth compares ~3 pairs an edge) stays on the grid. */
const GRID_PAIRS_SLACK = 16_384;

/**
 * The same answer by an edge grid (undefined once it has compared more than `pairBudget` pairs of
 * edges). Edges are compared only when they pass through the same cell of a grid whose cell side follows
 * the edges' own lengths (about two cells per edge, whatever the ring's box), so the cost is about
 * linear for the rings files hold: 2,000,000 corners in well under 0.1 s where all pairs took ~8 s
 * (bench/geometryProblems.ts). A cell still holding many edges (a comb finer than the grid) is
 * gridded again inside its own box, a few levels deep, then compared pairwise. The answer is the
 * all-pairs answer: two edges that touch both pass through the cell holding their common point
 * (cells are found column by column with a little slack, so rounding cannot lose one).
 */
export function gridSelfIntersects(ring: readonly LatLon[], pairBudget = Infinity): boolean | undefined {
  const n = ring.length;
  if (n < 4) return false; // a triangle's edges are all adjacent
  const grid = new EdgeGrid(ring, pairBudget);
  const edges = new Int32Array(n);
  for (let i = 0; i < n; i++) edges[i] = i;
  const b = boxOfPoints(ring);
  try {
    return grid.crosses(edges, b.minLon, b.minLat, b.maxLon, b.maxLat, 0);
  } catch (e) {
    if (e === TOO_MANY_PAIRS) return undefined;
    throw e;
  }
}

/** Thrown inside the grid when it has compared more pairs than its budget. */
const TOO_MANY_PAIRS = new Error('too many pairs');

/** A cell's side in mean edge runs (rises): each edge then passes about 1 + 2 / CELL_EDGES cells. */
const CELL_EDGES = 2;
/** Edges per cell at or below which a cell's edges are compared pairwise. */
const LEAF_EDGES = 16;
/** Grids within cells at most this deep; a deeper cell is compared pairwise whatever it holds. */
const MAX_DEPTH = 5;

class EdgeGrid {
  private readonly n: number;
  private readonly lat: Float64Array;
  private readonly lon: Float64Array;
  /** Pairs of edges compared so far, and how many may be before the grid gives up. */
  compared = 0;
  constructor(
    private readonly ring: readonly LatLon[],
    private readonly budget = Infinity,
  ) {
    const n = (this.n = ring.length);
    this.lat = new Float64Array(n);
    this.lon = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const p = ring[i] as LatLon;
      this.lat[i] = p[0];
      this.lon[i] = p[1];
    }
  }

  /** Edges i and j (from corner i to corner i + 1, the last back to the first) touch. */
  private touch(i: number, j: number): boolean {
    if (++this.compared > this.budget) throw TOO_MANY_PAIRS;
    const n = this.n;
    const d = i > j ? i - j : j - i;
    if (d <= 1 || d === n - 1) return false; // the same edge, or adjacent ones
    const { lat, lon } = this;
    const i1 = i + 1 === n ? 0 : i + 1;
    const j1 = j + 1 === n ? 0 : j + 1;
    // Boxes first: most pairs in a cell are apart.
    if (Math.max(lat[i]!, lat[i1]!) < Math.min(lat[j]!, lat[j1]!)) return false;
    if (Math.max(lat[j]!, lat[j1]!) < Math.min(lat[i]!, lat[i1]!)) return false;
    if (Math.max(lon[i]!, lon[i1]!) < Math.min(lon[j]!, lon[j1]!)) return false;
    if (Math.max(lon[j]!, lon[j1]!) < Math.min(lon[i]!, lon[i1]!)) return false;
    const r = this.ring;
    return segmentsIntersect(r[i] as LatLon, r[i1] as LatLon, r[j] as LatLon, r[j1] as LatLon);
  }

  private pairwise(edges: Int32Array): boolean {
    for (let a = 0; a < edges.length; a++)
      for (let b = a + 1; b < edges.length; b++) if (this.touch(edges[a]!, edges[b]!)) return true;
    return false;
  }

  /**
   * Whether two of `edges` touch at a point of the box (x: lon, y: lat); the edges pass through it.
   * A touch outside the box is some other cell's to find.
   */
  crosses(edges: Int32Array, x0: number, y0: number, x1: number, y1: number, depth: number): boolean {
    const m = edges.length;
    if (m <= LEAF_EDGES || depth >= MAX_DEPTH) return this.pairwise(edges);
    const { lat, lon, n } = this;
    const w = x1 - x0;
    const h = y1 - y0;
    // Cells as wide as the edges' mean run across the box and as tall as their mean rise (of the
    // parts inside the box), so each edge passes about two cells: a comb's thin teeth get thin columns.
    let runs = 0;
    let rises = 0;
    for (let k = 0; k < m; k++) {
      const i = edges[k]!;
      const i1 = i + 1 === n ? 0 : i + 1;
      runs += Math.max(
        0,
        Math.min(x1, Math.max(lon[i]!, lon[i1]!)) - Math.max(x0, Math.min(lon[i]!, lon[i1]!)),
      );
      rises += Math.max(
        0,
        Math.min(y1, Math.max(lat[i]!, lat[i1]!)) - Math.max(y0, Math.min(lat[i]!, lat[i1]!)),
      );
    }
    if (!(runs > 0 || rises > 0)) return this.pairwise(edges); // every edge at one point
    const cols = runs > 0 ? Math.max(1, Math.min(4 * m, Math.ceil((w * m) / (CELL_EDGES * runs)))) : 1;
    const rows = rises > 0 ? Math.max(1, Math.min(4 * m, Math.ceil((h * m) / (CELL_EDGES * rises)))) : 1;
    const cw = w / cols || 1;
    const ch = h / rows || 1;
    // Slack, so an edge through a cell's border or ending on it is in the cells on both sides:
    // relative to the cell, and never below what rounding in the interpolation can lose.
    const sx = Math.max(cw * 1e-6, 1e-11);
    const sy = Math.max(ch * 1e-6, 1e-11);
    const col = (x: number) => Math.min(cols - 1, Math.max(0, Math.floor((x - x0) / cw)));
    const row = (y: number) => Math.min(rows - 1, Math.max(0, Math.floor((y - y0) / ch)));

    // Each (cell, edge) the edges pass through, found column by column: counted, then written.
    let count = 0;
    let cellRow = new Int32Array(0);
    let cellCol = new Int32Array(0);
    let cellEdge = new Int32Array(0);
    for (let pass = 0; pass < 2; pass++) {
      let at = 0;
      for (let k = 0; k < m; k++) {
        const i = edges[k]!;
        const i1 = i + 1 === n ? 0 : i + 1;
        const ax = lon[i]!;
        const ay = lat[i]!;
        const bx = lon[i1]!;
        const by = lat[i1]!;
        const c0 = col(Math.min(ax, bx) - sx);
        const c1 = col(Math.max(ax, bx) + sx);
        const dx = bx - ax;
        for (let c = c0; c <= c1; c++) {
          // The edge's latitudes inside this column's strip (all of them for an upright edge).
          let ya = ay;
          let yb = by;
          if (dx !== 0 && c0 !== c1) {
            const xa = Math.max(Math.min(ax, bx), x0 + c * cw - sx);
            const xb = Math.min(Math.max(ax, bx), x0 + (c + 1) * cw + sx);
            ya = ay + ((xa - ax) / dx) * (by - ay);
            yb = ay + ((xb - ax) / dx) * (by - ay);
          }
          const r0 = row(Math.min(ya, yb) - sy);
          const r1 = row(Math.max(ya, yb) + sy);
          if (pass === 0) at += r1 - r0 + 1;
          else
            for (let r = r0; r <= r1; r++, at++) {
              cellRow[at] = r;
              cellCol[at] = c;
              cellEdge[at] = i;
            }
        }
      }
      if (pass === 0) {
        count = at;
        cellRow = new Int32Array(count);
        cellCol = new Int32Array(count);
        cellEdge = new Int32Array(count);
      }
    }

    // Grouped by cell: a counting sort by row, then a stable one by column.
    const byRow = countingOrder(cellRow, rows, null);
    const order = countingOrder(cellCol, cols, byRow);
    const group = new Int32Array(m);
    for (let g = 0; g < count;) {
      const first = order[g]!;
      const r = cellRow[first]!;
      const c = cellCol[first]!;
      let size = 0;
      for (; g < count && cellRow[order[g]!] === r && cellCol[order[g]!] === c; g++)
        group[size++] = cellEdge[order[g]!]!;
      if (size < 2) continue;
      if (size === 2) {
        if (this.touch(group[0]!, group[1]!)) return true;
        continue;
      }
      // A view, not a copy: a deeper level groups into its own array, and is done before the next cell.
      const inCell = group.subarray(0, size);
      // Gridding a cell again helps only when it holds fewer edges than the whole.
      const found =
        size < m
          ? this.crosses(
              inCell,
              x0 + c * cw - sx,
              y0 + r * ch - sy,
              x0 + (c + 1) * cw + sx,
              y0 + (r + 1) * ch + sy,
              depth + 1,
            )
          : this.pairwise(inCell);
      if (found) return true;
    }
    return false;
  }
}

/** The positions of `keys` (each below `buckets`) in key order, stable over `within` (else 0, 1, …). */
function countingOrder(keys: Int32Array, buckets: number, within: Int32Array | null): Int32Array {
  const starts = new Int32Array(buckets + 1);
  for (let k = 0; k < keys.length; k++) starts[keys[k]! + 1]!++;
  for (let b = 0; b < buckets; b++) starts[b + 1]! += starts[b]!;
  const out = new Int32Array(keys.length);
  for (let k = 0; k < keys.length; k++) {
    const at = within ? within[k]! : k;
    out[starts[keys[at]!]!++] = at;
  }
  return out;
}

/** Area-weighted centroid in degree space (fine for city-sized rings); the vertex mean when degenerate. */
export function centroid(ring: readonly LatLon[]): LatLon {
  let area = 0;
  let cLat = 0;
  let cLon = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [y1, x1] = ring[j] as LatLon;
    const [y2, x2] = ring[i] as LatLon;
    const cross = x1 * y2 - x2 * y1;
    area += cross;
    cLon += (x1 + x2) * cross;
    cLat += (y1 + y2) * cross;
  }
  if (Math.abs(area) < 1e-12) {
    const n = Math.max(1, ring.length);
    return [ring.reduce((s, p) => s + p[0], 0) / n, ring.reduce((s, p) => s + p[1], 0) / n];
  }
  return [cLat / (3 * area), cLon / (3 * area)];
}

/** Whether a polygon ring and an axis-aligned box overlap at all. */
export function polygonTouchesBox(ring: readonly LatLon[], b: Box): boolean {
  if (ring.some((p) => inBox(b, p[0], p[1]))) return true;
  const corners: LatLon[] = [
    [b.minLat, b.minLon],
    [b.minLat, b.maxLon],
    [b.maxLat, b.maxLon],
    [b.maxLat, b.minLon],
  ];
  if (corners.some((c) => insidePolygon(c[0], c[1], ring))) return true;
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i] as LatLon;
    const c = ring[(i + 1) % ring.length] as LatLon;
    for (let k = 0; k < 4; k++)
      if (segmentsIntersect(a, c, corners[k] as LatLon, corners[(k + 1) % 4] as LatLon)) return true;
  }
  return false;
}
