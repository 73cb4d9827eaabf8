/**
 * Boundary geometry for the basemap canvases: lines and polygon rings projected once to Web Mercator
 * [0, 1] and packed into typed arrays with a bounding box per part, simplified once per zoom level
 * (Douglas–Peucker at a fraction of a pixel), and traced into a canvas with culling: parts outside
 * the drawn area are skipped by their box, line segments outside it are not drawn, and rings larger
 * than it are clipped to it (no far-off coordinates on the canvas). A move costs the visible
 * vertices only, not a re-projection of the whole US. Nothing here touches Leaflet.
 */
import { latY, lngX } from '../projection';

/** Parts (lines or rings): part p has vertices start[p] … start[p+1]-1, x,y interleaved in coords. */
export type Shapes = {
  coords: Float64Array;
  start: Uint32Array;
  /** Per part: minX, minY, maxX, maxY. */
  bbox: Float64Array;
};

type Position = number[];

/** Packs lon/lat parts (GeoJSON line strings or polygon rings) into Mercator shapes. */
export function packParts(parts: readonly (readonly Position[])[]): Shapes {
  let n = 0;
  for (const p of parts) n += p.length;
  const coords = new Float64Array(n * 2);
  const start = new Uint32Array(parts.length + 1);
  const bbox = new Float64Array(parts.length * 4);
  let k = 0;
  parts.forEach((part, p) => {
    start[p] = k;
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (const position of part) {
      const x = lngX(position[0] as number);
      const y = latY(position[1] as number);
      coords[k * 2] = x;
      coords[k * 2 + 1] = y;
      k++;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    bbox.set([x0, y0, x1, y1], p * 4);
  });
  start[parts.length] = k;
  return { coords, start, bbox };
}

type Geometry =
  | { type: 'LineString'; coordinates: Position[] }
  | { type: 'MultiLineString'; coordinates: Position[][] }
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] }
  | { type: 'GeometryCollection'; geometries: Geometry[] }
  | { type: string };
type GeoJsonLike =
  | Geometry
  | { type: 'Feature'; geometry: Geometry | null }
  | { type: 'FeatureCollection'; features: { geometry: Geometry | null }[] };

/** Every line string and polygon ring in a GeoJSON object (points are ignored). */
export function partsOf(object: GeoJsonLike | null): Position[][] {
  const out: Position[][] = [];
  const visit = (g: GeoJsonLike | null): void => {
    if (!g) return;
    const any = g as {
      type: string;
      coordinates?: unknown;
      geometries?: Geometry[];
      geometry?: Geometry | null;
      features?: { geometry: Geometry | null }[];
    };
    switch (any.type) {
      case 'LineString':
        out.push(any.coordinates as Position[]);
        break;
      case 'MultiLineString':
      case 'Polygon':
        out.push(...(any.coordinates as Position[][]));
        break;
      case 'MultiPolygon':
        for (const polygon of any.coordinates as Position[][][]) out.push(...polygon);
        break;
      case 'GeometryCollection':
        any.geometries?.forEach(visit);
        break;
      case 'Feature':
        visit(any.geometry ?? null);
        break;
      case 'FeatureCollection':
        any.features?.forEach((f) => visit(f.geometry));
        break;
    }
  };
  visit(object);
  return out;
}

/** Square distance from (px, py) to the segment (ax, ay)–(bx, by). */
function segmentDistance2(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  let dx = bx - ax;
  let dy = by - ay;
  if (dx !== 0 || dy !== 0) {
    const t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy);
    if (t > 1) {
      ax = bx;
      ay = by;
    } else if (t > 0) {
      ax += dx * t;
      ay += dy * t;
    }
  }
  dx = px - ax;
  dy = py - ay;
  return dx * dx + dy * dy;
}

/**
 * Douglas–Peucker on every part with this tolerance (Mercator units). Lines keep their ends; rings
 * (closed: first = last) keep at least 4 vertices or are dropped, like parts smaller than the
 * tolerance (an island below a pixel is not drawn).
 */
export function simplifyShapes(shapes: Shapes, tolerance: number, rings: boolean): Shapes {
  const parts = shapes.start.length - 1;
  const keep = new Uint8Array(shapes.coords.length / 2);
  const stack: number[] = [];
  const tol2 = tolerance * tolerance;
  const { coords } = shapes;
  for (let p = 0; p < parts; p++) {
    const first = shapes.start[p] as number;
    const last = (shapes.start[p + 1] as number) - 1;
    if (last <= first) continue;
    keep[first] = 1;
    keep[last] = 1;
    stack.push(first, last);
    while (stack.length) {
      const b = stack.pop() as number;
      const a = stack.pop() as number;
      let worst = -1;
      let worstD = tol2;
      const ax = coords[a * 2] as number;
      const ay = coords[a * 2 + 1] as number;
      const bx = coords[b * 2] as number;
      const by = coords[b * 2 + 1] as number;
      for (let i = a + 1; i < b; i++) {
        const d = segmentDistance2(coords[i * 2] as number, coords[i * 2 + 1] as number, ax, ay, bx, by);
        if (d > worstD) {
          worst = i;
          worstD = d;
        }
      }
      if (worst >= 0) {
        keep[worst] = 1;
        stack.push(a, worst, worst, b);
      }
    }
  }
  const kept: number[] = [];
  const start: number[] = [];
  const bbox: number[] = [];
  for (let p = 0; p < parts; p++) {
    const x0 = shapes.bbox[p * 4] as number;
    const y0 = shapes.bbox[p * 4 + 1] as number;
    const x1 = shapes.bbox[p * 4 + 2] as number;
    const y1 = shapes.bbox[p * 4 + 3] as number;
    if (x1 - x0 < tolerance && y1 - y0 < tolerance) continue;
    const from = kept.length / 2;
    for (let i = shapes.start[p] as number; i < (shapes.start[p + 1] as number); i++) {
      if (keep[i]) kept.push(coords[i * 2] as number, coords[i * 2 + 1] as number);
    }
    const n = kept.length / 2 - from;
    if (n < (rings ? 4 : 2)) {
      kept.length = from * 2;
      continue;
    }
    start.push(from);
    bbox.push(x0, y0, x1, y1);
  }
  start.push(kept.length / 2);
  return { coords: Float64Array.from(kept), start: Uint32Array.from(start), bbox: Float64Array.from(bbox) };
}

/** Pixels of simplification error allowed (Leaflet's default smoothing is one). */
const SIMPLIFY_PX = 0.5;
/** From this zoom on, the data's own resolution (1:10m) is coarser than the tolerance: draw it as is. */
const FULL_DETAIL_ZOOM = 11;

/** Shapes simplified for each zoom, made on first use. */
export class ZoomedShapes {
  private readonly byZoom = new Map<number, Shapes>();

  constructor(
    readonly full: Shapes,
    private readonly rings: boolean,
  ) {}

  at(zoom: number): Shapes {
    const z = Math.max(0, Math.min(FULL_DETAIL_ZOOM, Math.floor(zoom)));
    if (z === FULL_DETAIL_ZOOM) return this.full;
    let shapes = this.byZoom.get(z);
    if (!shapes) {
      shapes = simplifyShapes(this.full, SIMPLIFY_PX / (256 * 2 ** z), this.rings);
      this.byZoom.set(z, shapes);
    }
    return shapes;
  }
}

/**
 * What a canvas shows: world pixels at the current zoom are Mercator × scale; canvas (x, y) is world
 * pixel (left + x, top + y); only [minX, maxX] × [minY, maxY] of the canvas is drawn.
 */
export type Frame = {
  left: number;
  top: number;
  scale: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
};

/** Parts whose box meets the frame's area (with a margin in pixels). */
function* partsIn(shapes: Shapes, f: Frame, margin: number): Generator<number> {
  const x0 = (f.left + f.minX - margin) / f.scale;
  const y0 = (f.top + f.minY - margin) / f.scale;
  const x1 = (f.left + f.maxX + margin) / f.scale;
  const y1 = (f.top + f.maxY + margin) / f.scale;
  const parts = shapes.start.length - 1;
  for (let p = 0; p < parts; p++) {
    const b = p * 4;
    if (
      (shapes.bbox[b] as number) > x1 ||
      (shapes.bbox[b + 2] as number) < x0 ||
      (shapes.bbox[b + 1] as number) > y1 ||
      (shapes.bbox[b + 3] as number) < y0
    )
      continue;
    yield p;
  }
}

/** Whether any part meets the frame's area. */
export function anyIn(shapes: Shapes, f: Frame, margin = 2): boolean {
  return !partsIn(shapes, f, margin).next().done;
}

/** The drawing calls used (a CanvasRenderingContext2D has them; tests record them). */
export type PathSink = {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
};

type Rect = { x0: number; y0: number; x1: number; y1: number };

const outcode = (x: number, y: number, r: Rect): number =>
  (x < r.x0 ? 1 : x > r.x1 ? 2 : 0) | (y < r.y0 ? 4 : y > r.y1 ? 8 : 0);

const drawn = (f: Frame, margin: number): Rect => ({
  x0: f.minX - margin,
  y0: f.minY - margin,
  x1: f.maxX + margin,
  y1: f.maxY + margin,
});

/** Adds the lines' segments that can show in the frame to the current path (stroke it after). */
export function traceLines(sink: PathSink, shapes: Shapes, f: Frame, margin = 2): number {
  const rect = drawn(f, margin);
  const { coords } = shapes;
  let segments = 0;
  for (const p of partsIn(shapes, f, margin)) {
    const first = shapes.start[p] as number;
    const end = shapes.start[p + 1] as number;
    let px = (coords[first * 2] as number) * f.scale - f.left;
    let py = (coords[first * 2 + 1] as number) * f.scale - f.top;
    let pc = outcode(px, py, rect);
    let pen = false;
    for (let i = first + 1; i < end; i++) {
      const x = (coords[i * 2] as number) * f.scale - f.left;
      const y = (coords[i * 2 + 1] as number) * f.scale - f.top;
      const c = outcode(x, y, rect);
      if ((pc & c) === 0) {
        if (!pen) sink.moveTo(px, py);
        sink.lineTo(x, y);
        pen = true;
        segments++;
      } else pen = false;
      px = x;
      py = y;
      pc = c;
    }
  }
  return segments;
}

/** Sutherland–Hodgman: the ring (flat x,y) clipped to the rectangle. */
export function clipRing(ring: number[], r: Rect): number[] {
  let points = ring;
  for (let edge = 0; edge < 4; edge++) {
    const axis = edge & 1; // 0: x, 1: y
    const bound = edge === 0 ? r.x0 : edge === 1 ? r.y0 : edge === 2 ? r.x1 : r.y1;
    const inside = (v: number) => (edge < 2 ? v >= bound : v <= bound);
    const next: number[] = [];
    const n = points.length / 2;
    for (let i = 0; i < n; i++) {
      const ax = points[((i + n - 1) % n) * 2] as number;
      const ay = points[((i + n - 1) % n) * 2 + 1] as number;
      const bx = points[i * 2] as number;
      const by = points[i * 2 + 1] as number;
      const aIn = inside(axis ? ay : ax);
      const bIn = inside(axis ? by : bx);
      if (aIn !== bIn) {
        const t = (bound - (axis ? ay : ax)) / ((axis ? by : bx) - (axis ? ay : ax));
        next.push(ax + (bx - ax) * t, ay + (by - ay) * t);
      }
      if (bIn) next.push(bx, by);
    }
    points = next;
    if (points.length === 0) break;
  }
  return points;
}

/** Adds the rings that can show in the frame to the current path (fill it 'evenodd' after). */
export function traceRings(sink: PathSink, shapes: Shapes, f: Frame, margin = 2): number {
  const rect = drawn(f, margin);
  const { coords } = shapes;
  let rings = 0;
  for (const p of partsIn(shapes, f, margin)) {
    const first = shapes.start[p] as number;
    const end = shapes.start[p + 1] as number;
    const b = p * 4;
    const inside =
      (shapes.bbox[b] as number) * f.scale - f.left >= rect.x0 &&
      (shapes.bbox[b + 2] as number) * f.scale - f.left <= rect.x1 &&
      (shapes.bbox[b + 1] as number) * f.scale - f.top >= rect.y0 &&
      (shapes.bbox[b + 3] as number) * f.scale - f.top <= rect.y1;
    let ring: number[] = [];
    for (let i = first; i < end; i++) {
      ring.push(
        (coords[i * 2] as number) * f.scale - f.left,
        (coords[i * 2 + 1] as number) * f.scale - f.top,
      );
    }
    if (!inside) ring = clipRing(ring, rect);
    if (ring.length < 6) continue;
    sink.moveTo(ring[0] as number, ring[1] as number);
    for (let i = 2; i < ring.length; i += 2) sink.lineTo(ring[i] as number, ring[i + 1] as number);
    sink.closePath();
    rings++;
  }
  return rings;
}
