/**
 * The edge indexes give the plain loops' answers: even–odd over every edge (insidePolygon), and
 * any edge within the distance (every edge measured), for points all over and around dense rings,
 * a ring with a hole, a star whose spikes span every band, and rings of three corners.
 */
import { describe, expect, it } from 'vitest';
import type { LatLon } from './bbox';
import { EdgeGrid, RingBands, segmentDistance2 } from './edgeIndex';
import { bufferedRegion, insidePolygons, projectedRings } from './features';
import { insidePolygon } from './polygon';
import { wavyRing, zigzagStar } from './rings.testing';
import { UtmProjection, utmZoneOf } from './utm';

/** A repeatable scatter of points over a box grown by a fifth each way, and the ring's own corners. */
function pointsAround(ring: readonly LatLon[], count: number): LatLon[] {
  const lats = ring.map((p) => p[0]);
  const lons = ring.map((p) => p[1]);
  const [a, b, c, d] = [Math.min(...lats), Math.max(...lats), Math.min(...lons), Math.max(...lons)];
  let s = 12345;
  const rand = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const out: LatLon[] = [];
  for (let k = 0; k < count; k++)
    out.push([a - 0.2 * (b - a) + rand() * 1.4 * (b - a), c - 0.2 * (d - c) + rand() * 1.4 * (d - c)]);
  return [...out, ...ring.filter((_, k) => k % 97 === 0)];
}

const nearByLoop = (x: Float64Array, y: Float64Array, px: number, py: number, m: number): boolean => {
  for (let i = 0, j = x.length - 1; i < x.length; j = i++)
    if (segmentDistance2(px, py, x[j]!, y[j]!, x[i]!, y[i]!) <= m * m) return true;
  return false;
};

const rings: [string, LatLon[]][] = [
  ['wavy, 20k corners', wavyRing(20_000, 41.85, -87.7, 0.03)],
  ['zig-zag star, 4k corners', zigzagStar(4_000) as LatLon[]],
  [
    'triangle',
    [
      [41.8, -87.7],
      [41.9, -87.65],
      [41.82, -87.6],
    ],
  ],
];

describe('edge indexes', () => {
  it.each(rings)('RingBands: the even–odd answer of every edge (%s)', (_name, ring) => {
    const bands = RingBands.build(
      Float64Array.from(ring, (p) => p[0]),
      Float64Array.from(ring, (p) => p[1]),
    );
    const points = pointsAround(ring, 20_000);
    const answers = points.map(([lat, lon]) => bands.contains(lat, lon));
    expect(answers).toEqual(points.map(([lat, lon]) => insidePolygon(lat, lon, ring)));
    expect(answers.filter(Boolean).length).toBeGreaterThan(100); // inside and outside both met
    expect(answers.filter((a) => !a).length).toBeGreaterThan(100);
  });

  it.each(rings)('EdgeGrid: within the distance of an edge as measuring every edge (%s)', (_name, ring) => {
    const [c] = ring;
    const utm = new UtmProjection(utmZoneOf(c![0], c![1]));
    const { x, y } = utm.forwardColumns(
      ring.map((p) => p[0]),
      ring.map((p) => p[1]),
    );
    for (const metres of [5, 150, 2_000]) {
      const grid = EdgeGrid.build(x, y, metres);
      const points = pointsAround(ring, 5_000).map(([lat, lon]) => utm.forward(lat, lon));
      const answers = points.map(([px, py]) => grid.near(px, py));
      expect(answers).toEqual(points.map(([px, py]) => nearByLoop(x, y, px, py, metres)));
      expect(answers.some(Boolean)).toBe(true);
    }
  });

  it('bufferedRegion keeps its answers with a hole, two parts and a buffer', () => {
    const outer = wavyRing(3_000, 41.85, -87.7, 0.03);
    const hole = wavyRing(500, 41.85, -87.7, 0.01);
    const other = wavyRing(800, 41.95, -87.6, 0.01);
    const polygons = [[outer, hole], [other]];
    const g = { kind: 'polygons' as const, polygons };
    const projected = projectedRings(g);
    const utm = new UtmProjection(utmZoneOf(41.9, -87.65)); // the box centre's zone, as the region's
    for (const metres of [0, 300]) {
      const region = bufferedRegion(g, metres);
      for (const [lat, lon] of pointsAround([...outer, ...other], 8_000)) {
        const [px, py] = utm.forward(lat, lon);
        const expected =
          insidePolygons(lat, lon, polygons) ||
          (metres > 0 && projected.some(({ x, y }) => nearByLoop(x, y, px, py, metres)));
        expect(region.contains(lat, lon)).toBe(expected);
      }
    }
  });
});
