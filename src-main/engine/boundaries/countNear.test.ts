import { describe, expect, it } from 'vitest';
import { bufferedRegion, type LatLon } from '../../../src-shared/geo';
import { countNearPoints, type CountFeature } from './countNear';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

describe('counts near features through the grid', () => {
  it('equal testing every point against every feature, each point once in the total', async () => {
    const r = rng(5);
    const n = 20_000;
    const lat = new Float64Array(n);
    const lon = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      // Two cities far apart, so the grid's cells are coarse.
      const west = i % 3 === 0;
      lat[i] = (west ? 34 : 41.8) + r() * 0.2;
      lon[i] = (west ? -118.4 : -87.7) + r() * 0.2;
    }
    const square = (a: number, b: number, d: number): LatLon[] => [
      [a, b],
      [a, b + d],
      [a + d, b + d],
      [a + d, b],
    ];
    const features: CountFeature[] = [
      ...Array.from({ length: 30 }, (_, k) => ({
        id: k + 1,
        name: `school ${k}`,
        geometry: { kind: 'points' as const, points: [[41.8 + r() * 0.2, -87.7 + r() * 0.2] as LatLon] },
      })),
      { id: 100, name: 'beat', geometry: { kind: 'polygons', polygons: [[square(41.85, -87.65, 0.03)]] } },
      { id: 101, name: 'far away', geometry: { kind: 'polygons', polygons: [[square(10, 10, 0.1)]] } },
      { id: 102, name: 'west', geometry: { kind: 'points', points: [[34.1, -118.3]] } },
    ];
    const metres = 400;
    const got = await countNearPoints(lat, lon, features, metres);
    const regions = features.map((f) => bufferedRegion(f.geometry, metres));
    const expected = regions.map((reg) => {
      let c = 0;
      for (let i = 0; i < n; i++) if (reg.contains(lat[i]!, lon[i]!)) c++;
      return c;
    });
    expect(got.counts).toEqual(expected);
    let total = 0;
    for (let i = 0; i < n; i++) if (regions.some((reg) => reg.contains(lat[i]!, lon[i]!))) total++;
    expect(got.total).toBe(total);
    expect(expected.filter((c) => c > 0).length).toBeGreaterThan(20);
    expect(await countNearPoints(new Float64Array(0), new Float64Array(0), features, metres)).toEqual({
      counts: features.map(() => 0),
      total: 0,
    });
  });
});
