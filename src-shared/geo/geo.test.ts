import { describe, expect, it } from 'vitest';
import {
  boxesOverlap,
  boxOfPoints,
  centroid,
  circleBox,
  contains,
  degreeCircleBox,
  degreeExtents,
  degreesBetween,
  EARTH_RADIUS_MI,
  inBox,
  insidePolygon,
  isLatitude,
  isLongitude,
  looseCircleBox,
  MILES_PER_DEGREE,
  milesBetween,
  milesFrom,
  outlineOf,
  parseCoordinates,
  regionOf,
  selfIntersects,
  shapeBox,
  shapeProblems,
  touchesBox,
  unionBox,
  type LatLon,
  type Shape,
} from './index';

/** Deterministic pseudo-random numbers for property checks. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const square: [number, number][] = [
  [0, 0],
  [0, 1],
  [1, 1],
  [1, 0],
];

describe('distances', () => {
  it('measures miles on the sphere and degree extents of a ground circle', () => {
    expect(milesBetween(40.7128, -74.006, 41.8781, -87.6298)).toBeCloseTo(711, -1);
    const { dLat, dLon } = degreeExtents(40, 1);
    expect(dLat).toBeCloseTo(1 / 69.09, 4);
    expect(dLon).toBeCloseTo(1 / (69.09 * Math.cos((40 * Math.PI) / 180)), 4);
    expect(MILES_PER_DEGREE).toBeCloseTo(69.094, 3);
  });

  it('gives the same bits from one place as between two, in either order', () => {
    const r = rng(3);
    const from = milesFrom(41.88, -87.63);
    for (let k = 0; k < 2000; k++) {
      const lat = 41.88 + (r() - 0.5) * 0.4;
      const lon = -87.63 + (r() - 0.5) * 0.4;
      expect(from(lat, lon)).toBe(milesBetween(41.88, -87.63, lat, lon));
      expect(milesBetween(lat, lon, 41.88, -87.63)).toBe(milesBetween(41.88, -87.63, lat, lon));
    }
  });

  it('measures degree space as the spec writes it: sqrt(Δlat² + Δlon²)', () => {
    expect(degreesBetween(0, 0, 3, 4)).toBe(5);
    const r = rng(5);
    for (let k = 0; k < 1000; k++) {
      const [a, b, c, d] = [r(), r(), r(), r()];
      expect(degreesBetween(a, b, c, d)).toBe(Math.sqrt((b - d) * (b - d) + (a - c) * (a - c)));
    }
  });

  it('keeps one Earth radius for every distance', () => {
    expect(EARTH_RADIUS_MI).toBe(3958.8);
    // A quarter of a meridian.
    expect(milesBetween(0, 0, 90, 0)).toBeCloseTo((Math.PI / 2) * 3958.8, 9);
  });
});

describe('boxes', () => {
  it('holds every point of a ground circle, the loose box around the exact one', () => {
    for (const [lat, miles] of [
      [41.88, 2],
      [-33.9, 10],
      [64.8, 50],
    ] as const) {
      const exact = circleBox(lat, 10, miles);
      const loose = looseCircleBox(lat, 10, miles);
      expect(loose.minLat).toBeLessThan(exact.minLat);
      expect(loose.maxLon).toBeGreaterThan(exact.maxLon);
      for (let k = 0; k < 360; k++) {
        const bearing = (k * Math.PI) / 180;
        // The point `miles` away on that bearing (a hair inside, against rounding).
        const d = (miles * 0.999999) / EARTH_RADIUS_MI;
        const la = (lat * Math.PI) / 180;
        const pLat = Math.asin(Math.sin(la) * Math.cos(d) + Math.cos(la) * Math.sin(d) * Math.cos(bearing));
        const pLon =
          (10 * Math.PI) / 180 +
          Math.atan2(
            Math.sin(bearing) * Math.sin(d) * Math.cos(la),
            Math.cos(d) - Math.sin(la) * Math.sin(pLat),
          );
        const [p0, p1] = [(pLat * 180) / Math.PI, (pLon * 180) / Math.PI];
        expect(milesBetween(lat, 10, p0, p1)).toBeLessThanOrEqual(miles);
        expect(inBox(exact, p0, p1)).toBe(true);
      }
    }
  });

  it('boxes points and degree circles, and tells overlap and union', () => {
    expect(boxOfPoints(square)).toEqual({ minLat: 0, maxLat: 1, minLon: 0, maxLon: 1 });
    expect(degreeCircleBox(1, 2, 0.5)).toEqual({ minLat: 0.5, maxLat: 1.5, minLon: 1.5, maxLon: 2.5 });
    const a = { minLat: 0, maxLat: 1, minLon: 0, maxLon: 1 };
    const b = { minLat: 1, maxLat: 2, minLon: 1, maxLon: 2 };
    const c = { minLat: 1.5, maxLat: 2, minLon: -1, maxLon: -0.5 };
    expect(boxesOverlap(a, b)).toBe(true);
    expect(boxesOverlap(a, c)).toBe(false);
    expect(unionBox(a, c)).toEqual({ minLat: 0, maxLat: 2, minLon: -1, maxLon: 1 });
  });
});

describe('polygons', () => {
  it('finds inside points, the centroid and crossings', () => {
    expect(insidePolygon(0.5, 0.5, square)).toBe(true);
    expect(insidePolygon(1.5, 0.5, square)).toBe(false);
    expect(centroid(square)).toEqual([0.5, 0.5]);
    expect(selfIntersects(square)).toBe(false);
    expect(
      selfIntersects([
        [0, 0],
        [1, 1],
        [0, 1],
        [1, 0],
      ]),
    ).toBe(true);
  });

  it('answers for a ring that gained a corner, not from what it remembered', () => {
    const ring: [number, number][] = [
      [0, 0],
      [0, 1],
      [1, 1],
    ];
    expect(insidePolygon(0.8, 0.2, ring)).toBe(false);
    ring.push([1, 0]);
    expect(insidePolygon(0.8, 0.2, ring)).toBe(true);
  });

  it('explains unusable shapes in plain words', () => {
    expect(shapeProblems({ kind: 'circle', lat: 95, lon: 0, radiusMi: 1 })[0]).toMatch(/latitude/);
    expect(shapeProblems({ kind: 'circle', lat: 40, lon: -74, radiusMi: 0 })[0]).toMatch(/greater than 0/);
    expect(shapeProblems({ kind: 'circle', lat: 40, lon: -74, radiusMi: 500 })[0]).toMatch(/at most/);
    expect(shapeProblems({ kind: 'circle', lat: NaN, lon: 200, radiusMi: 1 })).toHaveLength(2);
    expect(
      shapeProblems({
        kind: 'polygon',
        points: [
          [0, 0],
          [1, 1],
        ],
      })[0],
    ).toMatch(/at least 3/);
    expect(
      shapeProblems({
        kind: 'polygon',
        points: [
          [0, 0],
          [0.1, 0.1],
          [0, 0.1],
          [0.1, 0],
        ],
      })[0],
    ).toMatch(/cross/);
    expect(shapeProblems({ kind: 'polygon', points: square.map(([a, b]) => [a / 10, b / 10]) })).toEqual([]);
  });
});

describe('shapes and regions', () => {
  const circle: Shape = { kind: 'circle', lat: 40.7549, lon: -73.984, radiusMi: 1.5 };
  const poly: Shape = {
    kind: 'polygon',
    points: [
      [39.76, -104.99],
      [39.78, -104.99],
      [39.78, -104.96],
      [39.77, -104.975],
      [39.76, -104.96],
    ],
  };

  it.each([
    ['a circle', circle],
    ['a polygon', poly],
  ])('a region of %s answers as the shape does, inside its box', (_name, shape) => {
    const region = regionOf(shape);
    const b = shapeBox(shape);
    const r = rng(11);
    let inside = 0;
    for (let k = 0; k < 5000; k++) {
      const lat = b.minLat - 0.01 + r() * (b.maxLat - b.minLat + 0.02);
      const lon = b.minLon - 0.01 + r() * (b.maxLon - b.minLon + 0.02);
      const yes = contains(shape, lat, lon);
      expect(region.contains(lat, lon)).toBe(yes);
      if (yes) {
        inside++;
        expect(inBox(region.box, lat, lon)).toBe(true);
        expect(inBox(b, lat, lon)).toBe(true);
      }
    }
    expect(inside).toBeGreaterThan(500);
  });

  it('centres a polygon region on its centroid and knows which boxes it reaches', () => {
    const [cLat, cLon] = centroid(poly.points);
    expect(regionOf(poly).center).toEqual({ lat: cLat, lon: cLon });
    expect(regionOf(circle).center).toEqual({ lat: 40.7549, lon: -73.984 });
    const near = { minLat: 40.76, maxLat: 40.77, minLon: -73.99, maxLon: -73.98 };
    const far = { minLat: 41, maxLat: 41.1, minLon: -73.99, maxLon: -73.98 };
    expect(touchesBox(circle, near)).toBe(true);
    expect(touchesBox(circle, far)).toBe(false);
  });

  it('outlines a circle as 72 corners a radius away and a polygon as drawn', () => {
    const ring = outlineOf({ kind: 'circle', lat: 41.88, lon: -87.63, radiusMi: 1 });
    expect(ring).toHaveLength(72);
    expect(ring[0]?.[0]).toBeCloseTo(41.88 + 1 / 69.05, 9);
    for (const [lat, lon] of ring) expect(milesBetween(41.88, -87.63, lat, lon)).toBeCloseTo(1, 2);
    expect(outlineOf(poly)).toEqual(poly.points.map((p: LatLon) => [...p]));
  });
});

describe('typed coordinates', () => {
  it('reads decimal degrees, hemispheres and degrees-minutes-seconds', () => {
    expect(parseCoordinates('41.88, -87.63')).toEqual({ lat: 41.88, lon: -87.63 });
    expect(parseCoordinates('41.88 -87.63')).toEqual({ lat: 41.88, lon: -87.63 });
    expect(parseCoordinates('41.88N 87.63W')).toEqual({ lat: 41.88, lon: -87.63 });
    expect(parseCoordinates('87.63W, 41.88N')).toEqual({ lat: 41.88, lon: -87.63 });
    const dms = parseCoordinates(`41°52'48"N 87°37'48"W`);
    expect(dms?.lat).toBeCloseTo(41.88, 5);
    expect(dms?.lon).toBeCloseTo(-87.63, 5);
  });

  it('refuses what is not a position on Earth', () => {
    expect(parseCoordinates('Chicago')).toBeNull();
    expect(parseCoordinates('91, 10')).toBeNull();
    expect(parseCoordinates('10, 181')).toBeNull();
    expect(parseCoordinates('41.88')).toBeNull();
    expect([isLatitude(NaN), isLatitude(Infinity), isLongitude(-180), isLatitude(-90)]).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });
});
