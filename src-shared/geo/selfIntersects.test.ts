/**
 * The self-crossing check (polygon.ts `selfIntersects`, used by drawn areas and by
 * `geometryProblems` for boundary files) gives the all-pairs answer — crossing, touching at a corner
 * or on an edge, overlapping — on small rings, on rings large enough for its grid and the grids in
 * its cells, and on random rings checked against all pairs. Its speed is bench/geometryProblems.ts.
 */
import { describe, expect, it } from 'vitest';
import type { LatLon } from './bbox';
import { geometryProblems } from './features';
import { gridSelfIntersects, segmentsIntersect, selfIntersects } from './polygon';
import { allPairsCross as allPairs, comb, crossedStar, wavyRing as wavy, zigzagStar } from './rings.testing';
import { sweepSelfIntersects } from './sweepCrossing';

let seed = 7;
const random = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;

describe('selfIntersects', () => {
  it('finds a crossing, a touch at a corner, a corner on an edge and an overlap; not a simple ring', () => {
    const square: LatLon[] = [
      [0, 0],
      [0, 1],
      [1, 1],
      [1, 0],
    ];
    expect(selfIntersects(square)).toBe(false);
    const bowtie: LatLon[] = [
      [0, 0],
      [1, 1],
      [1, 0],
      [0, 1],
    ];
    expect(selfIntersects(bowtie)).toBe(true);
    // Two lobes meeting at (1, 1): corners 1 and 4 are the same point.
    const pinched: LatLon[] = [
      [0, 0],
      [1, 1],
      [2, 0],
      [2, 2],
      [1, 1],
      [0, 2],
    ];
    expect(selfIntersects(pinched)).toBe(true);
    // Corner (1, 1) lies on the edge from (0, 1) to (2, 1) without crossing it.
    const onEdge: LatLon[] = [
      [0, 0],
      [0, 1],
      [2, 1],
      [2, 0],
      [1, 0.5],
      [1, 1],
      [1.5, 0.2],
    ];
    expect(selfIntersects(onEdge)).toBe(true);
    // An edge folding back over an earlier, non-adjacent one.
    const overlap: LatLon[] = [
      [0, 0],
      [0, 3],
      [1, 3],
      [1, 1],
      [0, 1],
      [0, 2],
      [-1, 2],
      [-1, 0],
    ];
    expect(selfIntersects(overlap)).toBe(allPairs(overlap));
    expect(selfIntersects(overlap)).toBe(true);
    expect(selfIntersects(square.slice(0, 3))).toBe(false);
  });

  it('answers for rings its grid splits: large wavy rings, a comb finer than a cell, one touch among thousands', () => {
    const big = wavy(50_000);
    expect(selfIntersects(big)).toBe(false);
    const swapped = [...big];
    [swapped[1000], swapped[1001]] = [swapped[1001]!, swapped[1000]!];
    expect(selfIntersects(swapped)).toBe(true);
    const teeth = comb(1000);
    expect(selfIntersects(teeth)).toBe(false);
    // Tooth 500's right foot moved onto tooth 501's left foot: two teeth touch.
    const touching = [...teeth];
    touching[500 * 4 + 3] = touching[501 * 4]!;
    expect(selfIntersects(touching)).toBe(true);
    expect(allPairs(touching)).toBe(true);
  });

  it('agrees with all pairs on random rings, corners on a coarse lattice (touches on cell borders) and wavy', () => {
    let crossing = 0;
    for (let t = 0; t < 1500; t++) {
      const n = 4 + Math.floor(random() * 160);
      let ring: LatLon[];
      if (t % 3 === 0)
        ring = Array.from({ length: n }, () => [Math.round(random() * 30), Math.round(random() * 30)]);
      else {
        ring = Array.from({ length: n }, (_, k) => {
          const a = (k / n) * 2 * Math.PI;
          const r = Math.round((1 + random() * (t % 3 === 1 ? 0.5 : 3)) * 8) / 8;
          return [41 + Math.round(r * Math.sin(a) * 64) / 64, -87 + Math.round(r * Math.cos(a) * 64) / 64];
        });
        if (random() < 0.3) {
          const k = Math.floor(random() * n);
          ring[k] = ring[(k + 2 + Math.floor(random() * 5)) % n]!;
        }
      }
      const want = allPairs(ring);
      if (want) crossing++;
      expect(selfIntersects(ring), JSON.stringify(ring)).toBe(want);
    }
    expect(crossing).toBeGreaterThan(300);
    expect(crossing).toBeLessThan(1200);
  });

  it('is what geometryProblems says of a boundary ring of any size', () => {
    const ring = wavy(20_000);
    expect(geometryProblems({ kind: 'polygons', polygons: [[ring]] })).toEqual([]);
    const crossed = [...ring];
    [crossed[5], crossed[9000]] = [crossed[9000]!, crossed[5]!];
    expect(geometryProblems({ kind: 'polygons', polygons: [[crossed]] })).toEqual([
      'the outer ring crosses itself',
    ]);
  });

  it('judges the 250,000-corner zig-zag star simple by the sweep (the grid gives up on it) and finds one crossing put in', () => {
    const star = zigzagStar(250_000);
    expect(gridSelfIntersects(star, 2 * star.length + 16_384)).toBeUndefined();
    expect(sweepSelfIntersects(star, segmentsIntersect)).toBe(false);
    expect(selfIntersects(star)).toBe(false);
    const crossed = crossedStar(star, 123_456);
    expect(sweepSelfIntersects(crossed, segmentsIntersect)).toBe(true);
    const square: LatLon[] = [
      [41.8, -87.7],
      [41.8, -87.6],
      [41.9, -87.6],
      [41.9, -87.7],
    ];
    expect(geometryProblems({ kind: 'polygons', polygons: [[square, star]] })).toEqual([]);
    expect(geometryProblems({ kind: 'polygons', polygons: [[square, crossed]] })).toEqual([
      'hole 1 crosses itself',
    ]);
    // The same swap in a small star crosses by all pairs too.
    expect(allPairs(crossedStar(zigzagStar(400), 100))).toBe(true);
    expect(allPairs(zigzagStar(400))).toBe(false);
  });

  it('sweeps to the all-pairs answer: random rings, rectilinear lattice walks, spikes onto edges', () => {
    let answered = 0;
    let crossing = 0;
    for (let t = 0; t < 1500; t++) {
      const n = 4 + 2 * Math.floor(random() * 30);
      let ring: LatLon[] = [];
      if (t % 3 === 0) {
        // Upright and level edges on a lattice: touches, overlaps and corners on edges.
        let x = 0;
        let y = 0;
        for (let k = 0; k < n - 1; k++) {
          ring.push([y, x]);
          if (k % 2 === 0) x += Math.floor(random() * 7) - 3;
          else y += Math.floor(random() * 7) - 3;
        }
        ring.push([y, 0]);
      } else if (t % 3 === 1) {
        ring = Array.from({ length: n }, () => [random(), random()]);
      } else {
        const angles = Array.from({ length: n }, () => random() * 2 * Math.PI).sort((a, b) => a - b);
        ring = angles.map((a) => {
          const r = 0.5 + random();
          return [r * Math.sin(a), r * Math.cos(a)];
        });
        if (random() < 0.4) {
          const k = Math.floor(random() * n);
          const j = (k + 1 + Math.floor(random() * (n - 2))) % n;
          const [a, b] = [ring[j]!, ring[(j + 1) % n]!];
          ring[k] = [a[0] * 0.75 + b[0] * 0.25, a[1] * 0.75 + b[1] * 0.25];
        }
      }
      const want = allPairs(ring);
      if (want) crossing++;
      const swept = sweepSelfIntersects(ring, segmentsIntersect);
      if (swept !== undefined) {
        answered++;
        expect(swept, JSON.stringify(ring)).toBe(want);
      }
      expect(selfIntersects(ring)).toBe(want);
    }
    expect(answered).toBeGreaterThan(1350);
    expect(crossing).toBeGreaterThan(300);
    expect(crossing).toBeLessThan(1200);
  });
});
