import { describe, expect, it } from 'vitest';
import { contains, degreeExtents, type Shape } from '../../../src-shared/geo';
import {
  coveringTile,
  densityTiles,
  gridTiles,
  inTile,
  rootTiles,
  splitTile,
  STANDARD_RADIUS,
  type Tile,
} from './tiles';

/** Deterministic pseudo-random numbers for property checks. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

function pointsInside(shape: Shape, n: number, seed = 1): [number, number][] {
  const r = rng(seed);
  const out: [number, number][] = [];
  const box =
    shape.kind === 'circle'
      ? { lat: shape.lat, lon: shape.lon, d: degreeExtents(shape.lat, shape.radiusMi) }
      : null;
  while (out.length < n) {
    let lat: number;
    let lon: number;
    if (box) {
      lat = box.lat + (r() * 2 - 1) * box.d.dLat;
      lon = box.lon + (r() * 2 - 1) * box.d.dLon;
    } else {
      const pts = (shape as Extract<Shape, { kind: 'polygon' }>).points;
      const lats = pts.map((p) => p[0]);
      const lons = pts.map((p) => p[1]);
      lat = Math.min(...lats) + r() * (Math.max(...lats) - Math.min(...lats));
      lon = Math.min(...lons) + r() * (Math.max(...lons) - Math.min(...lons));
    }
    if (contains(shape, lat, lon)) out.push([lat, lon]);
  }
  return out;
}

const covered = (tiles: Tile[], lat: number, lon: number): boolean => tiles.some((t) => inTile(t, lat, lon));

describe('tiles', () => {
  const city: Shape = { kind: 'circle', lat: 40.7549, lon: -73.984, radiusMi: 1.5 };
  const small: Shape = { kind: 'circle', lat: 39.95, lon: -86.01, radiusMi: 0.4 };
  const poly: Shape = {
    kind: 'polygon',
    points: [
      [41.87, -87.64],
      [41.9, -87.64],
      [41.9, -87.6],
      [41.885, -87.62],
      [41.87, -87.6],
    ],
  };

  it('uses one circle for a small area and the standard grid for a larger one', () => {
    expect(rootTiles(small)).toHaveLength(1);
    const grid = rootTiles(city);
    expect(grid.length).toBeGreaterThan(4);
    for (const t of grid) expect(t.radius).toBeLessThanOrEqual(STANDARD_RADIUS + 2e-6);
  });

  it.each([
    ['a circle', city],
    ['a small circle', small],
    ['a polygon', poly],
  ])('covers every point of %s, at the root and after splitting', (_name, shape) => {
    const roots = rootTiles(shape);
    const split = roots.flatMap((t) => splitTile(t, shape)).flatMap((t) => splitTile(t, shape));
    for (const [lat, lon] of pointsInside(shape, 3000)) {
      expect(covered(roots, lat, lon)).toBe(true);
      expect(covered(split, lat, lon)).toBe(true);
      expect(covered([coveringTile(shape)], lat, lon)).toBe(true);
    }
  });

  it('keeps quadrant circles inside the parent cell’s circle', () => {
    const [parent] = gridTiles(city);
    if (!parent) throw new Error('no tile');
    for (const child of splitTile(parent, {
      kind: 'polygon',
      points: [
        [0, -180],
        [80, -180],
        [80, 0],
      ],
    })) {
      const reach = Math.hypot(child.lat - parent.lat, child.lon - parent.lon) + child.radius;
      expect(reach).toBeLessThanOrEqual(parent.radius + 3e-6);
    }
  });

  it('plans denser places with smaller tiles', () => {
    const hot = { lat: 40.762, lon: -73.972 };
    const rows = (t: Tile): number => Math.PI * t.radius ** 2 * (inTile(t, hot.lat, hot.lon) ? 2e7 : 1e6);
    const tiles = densityTiles(city, (t) => Math.max(1, Math.ceil(rows(t) / 400)));
    const atHot = tiles.filter((t) => inTile(t, hot.lat, hot.lon));
    const far = tiles.filter((t) => !inTile(t, hot.lat, hot.lon));
    expect(Math.max(...atHot.map((t) => t.radius))).toBeLessThan(Math.max(...far.map((t) => t.radius)));
    for (const [lat, lon] of pointsInside(city, 2000, 7)) expect(covered(tiles, lat, lon)).toBe(true);
  });
});
