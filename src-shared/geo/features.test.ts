import { describe, expect, it } from 'vitest';
import {
  bufferedRegion,
  circleRing,
  geometryProblems,
  growBox,
  inBox,
  insidePolygons,
  UtmProjection,
  utmZoneOf,
  type FeatureGeometry,
  type LatLon,
} from './index';

// A 0.02° square (lat 41.90–41.92, lon -87.66 – -87.64) with a 0.004° square hole in its middle.
const outer: LatLon[] = [
  [41.9, -87.66],
  [41.9, -87.64],
  [41.92, -87.64],
  [41.92, -87.66],
];
const hole: LatLon[] = [
  [41.908, -87.652],
  [41.908, -87.648],
  [41.912, -87.648],
  [41.912, -87.652],
];
const beat: FeatureGeometry = { kind: 'polygons', polygons: [[outer, hole]] };

describe('polygons with holes and parts', () => {
  it('is inside the outer ring but not in the hole', () => {
    expect(insidePolygons(41.905, -87.655, beat.kind === 'polygons' ? beat.polygons : [])).toBe(true);
    expect(insidePolygons(41.91, -87.65, beat.kind === 'polygons' ? beat.polygons : [])).toBe(false); // the hole
    expect(insidePolygons(41.93, -87.65, beat.kind === 'polygons' ? beat.polygons : [])).toBe(false);
    const second: LatLon[] = [
      [42, -87],
      [42, -86.9],
      [42.1, -86.9],
    ];
    expect(insidePolygons(42.01, -86.95, [[outer], [second]])).toBe(true);
  });

  it('names what is wrong with a geometry', () => {
    expect(geometryProblems(beat)).toEqual([]);
    const bowtie: LatLon[] = [
      [0, 0],
      [1, 1],
      [1, 0],
      [0, 1],
    ];
    expect(geometryProblems({ kind: 'polygons', polygons: [[bowtie]] })).toEqual([
      'the outer ring crosses itself',
    ]);
    expect(geometryProblems({ kind: 'polygons', polygons: [[outer.slice(0, 2)]] })).toEqual([
      'the outer ring has fewer than 3 corners',
    ]);
    expect(geometryProblems({ kind: 'points', points: [[1_300_000, 400_000]] })[0]).toMatch(/not a latitude/);
    expect(
      geometryProblems({
        kind: 'polygons',
        polygons: [
          [outer],
          [
            [
              [1, 1],
              [2, 2],
              [3, 3],
            ],
          ],
        ],
      }),
    ).toEqual(['part 2: the outer ring has no area']);
  });
});

describe('buffers in metres', () => {
  const utm = new UtmProjection(utmZoneOf(41.91, -87.65));
  /** A point `m` metres east of a lat/lon, on the same UTM zone (hand-computed distance). */
  const east = (lat: number, lon: number, m: number): LatLon => {
    const [x, y] = utm.forward(lat, lon);
    return utm.inverse(x + m, y);
  };

  it('keeps what is within the distance of a point and nothing farther', () => {
    const school: FeatureGeometry = { kind: 'points', points: [[41.91, -87.65]] };
    const r = bufferedRegion(school, 304.8); // 1,000 ft
    const near = east(41.91, -87.65, 300);
    const far = east(41.91, -87.65, 310);
    expect(r.contains(near[0], near[1])).toBe(true);
    expect(r.contains(far[0], far[1])).toBe(false);
    expect(inBox(r.box, near[0], near[1])).toBe(true);
    // Every corner of the drawn circle is on the edge: within a millimetre of 304.8 m.
    for (const [lat, lon] of circleRing(41.91, -87.65, 304.8, 16)) {
      const [x, y] = utm.forward(lat, lon);
      const [cx, cy] = utm.forward(41.91, -87.65);
      expect(Math.hypot(x - cx, y - cy)).toBeCloseTo(304.8, 3);
      expect(inBox(r.box, lat, lon)).toBe(true);
    }
  });

  it('grows a polygon outwards by the distance from its nearest edge, and keeps its inside', () => {
    const r = bufferedRegion(beat, 100);
    const edgeEast = east(41.91, -87.64, 0);
    const in90 = east(edgeEast[0], edgeEast[1], 90);
    const out110 = east(edgeEast[0], edgeEast[1], 110);
    expect(r.contains(in90[0], in90[1])).toBe(true);
    expect(r.contains(out110[0], out110[1])).toBe(false);
    // The hole is 0.004° (~330 m) wide: its centre is ~165 m from the hole's edges, so a 100 m
    // buffer leaves it out and a 200 m one takes it in.
    expect(r.contains(41.91, -87.65)).toBe(false);
    expect(bufferedRegion(beat, 200).contains(41.91, -87.65)).toBe(true);
    // Beyond a corner the distance is to the corner itself (hand-computed: 70.7 m diagonally).
    const [x, y] = utm.forward(41.92, -87.64);
    const diag = utm.inverse(x + 75, y + 75); // 106 m from the corner
    expect(r.contains(diag[0], diag[1])).toBe(false);
    const diagIn = utm.inverse(x + 65, y + 65); // 92 m
    expect(r.contains(diagIn[0], diagIn[1])).toBe(true);
  });

  it('a grown box always holds the buffer', () => {
    const b = growBox({ minLat: 41.9, maxLat: 41.92, minLon: -87.66, maxLon: -87.64 }, 1000);
    const far = east(41.91, -87.64, 999);
    expect(inBox(b, far[0], far[1])).toBe(true);
    expect(b.maxLat - 41.92).toBeGreaterThan(1000 / 111_700);
  });
});
