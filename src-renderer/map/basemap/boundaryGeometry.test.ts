import { describe, expect, it } from 'vitest';
import { latY, lngX } from '../projection';
import {
  anyIn,
  clipRing,
  packParts,
  partsOf,
  simplifyShapes,
  traceLines,
  traceRings,
  ZoomedShapes,
  type Frame,
  type PathSink,
} from './boundaryGeometry';

/** Records the path a trace makes: one array of [x, y] per subpath. */
function recorder(): PathSink & { paths: [number, number][][] } {
  const paths: [number, number][][] = [];
  return {
    paths,
    moveTo: (x, y) => void paths.push([[x, y]]),
    lineTo: (x, y) => void paths[paths.length - 1]?.push([x, y]),
    closePath: () => undefined,
  };
}

/** The view of an 800 × 600 map centred on (lat, lon) at `zoom`, as the basemap canvas frames it. */
function frameAt(lat: number, lon: number, zoom: number, pad = 0): Frame {
  const scale = 256 * 2 ** zoom;
  return {
    left: lngX(lon) * scale - 400,
    top: latY(lat) * scale - 300,
    scale,
    minX: -pad,
    minY: -pad,
    maxX: 800 + pad,
    maxY: 600 + pad,
  };
}

// A wiggly line along 41° N from 100° W to 80° W, one vertex every 0.01°.
const WIGGLE = Array.from({ length: 2001 }, (_, i) => [-100 + i * 0.01, 41 + 0.002 * Math.sin(i)]);
// A square "state" around Chicago, closed.
const SQUARE = [
  [-88, 41.5],
  [-87, 41.5],
  [-87, 42.5],
  [-88, 42.5],
  [-88, 41.5],
];

describe('boundary geometry', () => {
  it('reads lines and rings out of GeoJSON and packs them in Mercator with a box per part', () => {
    const parts = partsOf({
      type: 'FeatureCollection',
      features: [
        { geometry: { type: 'MultiPolygon', coordinates: [[SQUARE], [SQUARE]] } },
        { geometry: { type: 'LineString', coordinates: WIGGLE.slice(0, 3) } },
        { geometry: { type: 'Point', coordinates: [0, 0] } } as never,
        { geometry: null },
      ],
    });
    expect(parts.map((p) => p.length)).toEqual([5, 5, 3]);
    const shapes = packParts(parts);
    expect(Array.from(shapes.start)).toEqual([0, 5, 10, 13]);
    expect(shapes.coords[0]).toBeCloseTo(lngX(-88), 12);
    expect(shapes.coords[1]).toBeCloseTo(latY(41.5), 12);
    expect(shapes.bbox[0]).toBeCloseTo(lngX(-88), 12);
    expect(shapes.bbox[1]).toBeCloseTo(latY(42.5), 12); // north is up: smaller y
    expect(shapes.bbox[3]).toBeCloseTo(latY(41.5), 12);
  });

  it('simplifies per zoom within half a pixel, keeping ends, and drops rings below a pixel', () => {
    const line = packParts([WIGGLE]);
    const zoomed = new ZoomedShapes(line, false);
    const low = zoomed.at(4);
    expect(low.start.length - 1).toBe(1);
    const kept = (low.start[1] as number) - (low.start[0] as number);
    expect(kept).toBeLessThan(20);
    expect(kept).toBeGreaterThanOrEqual(2);
    expect(low.coords[0]).toBe(line.coords[0]);
    expect(low.coords[kept * 2 - 2]).toBe(line.coords[2000 * 2]);
    // Each dropped vertex is within the tolerance of the simplified line.
    const tolerance = 0.5 / (256 * 2 ** 4);
    const dist = (px: number, py: number) => {
      let best = Infinity;
      for (let i = 0; i + 1 < kept; i++) {
        const [ax, ay, bx, by] = [
          low.coords[i * 2],
          low.coords[i * 2 + 1],
          low.coords[i * 2 + 2],
          low.coords[i * 2 + 3],
        ] as number[];
        const t = Math.max(
          0,
          Math.min(
            1,
            ((px - ax!) * (bx! - ax!) + (py - ay!) * (by! - ay!)) / ((bx! - ax!) ** 2 + (by! - ay!) ** 2),
          ),
        );
        best = Math.min(best, Math.hypot(px - (ax! + t * (bx! - ax!)), py - (ay! + t * (by! - ay!))));
      }
      return best;
    };
    for (let i = 0; i <= 2000; i += 37) {
      expect(dist(line.coords[i * 2] as number, line.coords[i * 2 + 1] as number)).toBeLessThanOrEqual(
        tolerance * 1.0001,
      );
    }
    expect(zoomed.at(4)).toBe(low); // cached
    expect(zoomed.at(14)).toBe(line); // full detail from zoom 11 on
    expect(simplifyShapes(line, 0, false).coords.length).toBe(line.coords.length);
    // A ring (an island) smaller than the tolerance is dropped; a larger one keeps at least 4 vertices.
    const islands = packParts([SQUARE.map(([x, y]) => [(x as number) / 1e4, (y as number) / 1e4]), SQUARE]);
    const rings = new ZoomedShapes(islands, true).at(4);
    expect(rings.start.length - 1).toBe(1);
    expect((rings.start[1] as number) - (rings.start[0] as number)).toBe(5);
  });

  it('traces only the segments that can show, in canvas pixels', () => {
    const shapes = packParts([WIGGLE, SQUARE]);
    const frame = frameAt(41, -90, 10);
    const sink = recorder();
    const segments = traceLines(sink, shapes, frame);
    // 800 px at zoom 10 is ~1.1° of longitude: ~110 of the wiggle's 2000 segments, and none of the square's.
    expect(segments).toBeGreaterThan(100);
    expect(segments).toBeLessThan(125);
    for (const path of sink.paths) {
      for (const [x, y] of path) {
        expect(Math.abs(x)).toBeLessThan(2000);
        expect(Math.abs(y)).toBeLessThan(2000);
      }
    }
    expect(anyIn(shapes, frameAt(30, -120, 10))).toBe(false);
    expect(traceLines(recorder(), shapes, frameAt(30, -120, 10))).toBe(0);
  });

  it('clips a ring larger than the canvas to it, and fills a canvas inside it completely', () => {
    const corners = (ring: number[]) =>
      Array.from({ length: ring.length / 2 }, (_, i) => `${ring[i * 2]},${ring[i * 2 + 1]}`).sort();
    expect(
      corners(clipRing([-10, -10, 110, -10, 110, 110, -10, 110], { x0: 0, y0: 0, x1: 100, y1: 100 })),
    ).toEqual(['0,0', '0,100', '100,0', '100,100']);
    expect(clipRing([200, 200, 300, 200, 300, 300], { x0: 0, y0: 0, x1: 100, y1: 100 })).toEqual([]);
    // Zoom 16 inside the square: the traced ring is the canvas (plus its 2 px margin), not far-off corners.
    const sink = recorder();
    expect(traceRings(sink, packParts([SQUARE]), frameAt(42, -87.5, 16, 50))).toBe(1);
    const xs = (sink.paths[0] ?? []).map(([x]) => x);
    const ys = (sink.paths[0] ?? []).map(([, y]) => y);
    expect(Math.min(...xs)).toBe(-52);
    expect(Math.max(...xs)).toBe(852);
    expect(Math.min(...ys)).toBe(-52);
    expect(Math.max(...ys)).toBe(652);
  });
});
