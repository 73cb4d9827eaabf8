import { describe, expect, it } from 'vitest';
import { coverageMask, countPerCell, Grid } from './grid';
import { seededRandom } from './random';
import { CENTRE_X, CENTRE_Y, TEST_UTM } from './testPoints';

describe('square grid', () => {
  const grid = Grid.over('square', 100, { minX: 1234, minY: -50, maxX: 1600, maxY: 250 });

  it('starts at floor(min / cell) · cell and covers the extent', () => {
    expect([grid.originX, grid.originY]).toEqual([1200, -100]);
    expect([grid.cols, grid.rows]).toEqual([5, 4]);
    expect(grid.cellOf(1234, -50)).toBe(0);
    expect(grid.cellOf(1600, 250)).toBe(3 * 5 + 4);
    expect(grid.cellOf(1199, 0)).toBe(-1);
  });

  it('has 13 cells within a band of two cells (itself included)', () => {
    const [even, odd] = grid.offsetsWithin(200);
    expect(even.length / 2).toBe(13);
    expect(odd).toEqual(even);
  });

  it('counts points per cell', () => {
    const counts = countPerCell(grid, Float64Array.of(1250, 1260, 1555), Float64Array.of(-60, -55, 240));
    expect(counts[0]).toBe(2);
    expect(counts[3 * 5 + 3]).toBe(1);
  });
});

describe('hexagon grid (flat-topped, cell size = flat-to-flat width)', () => {
  const w = 200;
  const grid = Grid.over('hexagon', w, { minX: 0, minY: 0, maxX: 2000, maxY: 1500 });

  it('has flats a cell size apart, 6 neighbours at one cell, and sides of w/√3', () => {
    expect(grid.centreY(3, 5) - grid.centreY(3, 4)).toBeCloseTo(w, 9);
    const [even, odd] = grid.offsetsWithin(w);
    expect(even.length / 2).toBe(7);
    expect(odd.length / 2).toBe(7);
    const corners = grid.corners(grid.cols * 2 + 2);
    const side = Math.hypot(corners[1]![0] - corners[0]![0], corners[1]![1] - corners[0]![1]);
    expect(side).toBeCloseTo(w / Math.sqrt(3), 9);
    // Flat top: the two highest corners share a y, one width above the lowest two.
    const ys = corners.map((c) => c[1]).sort((a, b) => a - b);
    expect(ys[5]! - ys[0]!).toBeCloseTo(w, 9);
    expect(ys[5]).toBeCloseTo(ys[4]!, 9);
  });

  it('puts every point in the hexagon with the nearest centre, and every point of the extent in the grid', () => {
    const random = seededRandom(7);
    for (let k = 0; k < 2000; k++) {
      const x = random() * 2000;
      const y = random() * 1500;
      const cell = grid.cellOf(x, y);
      expect(cell).toBeGreaterThanOrEqual(0);
      let best = -1;
      let bestD = Infinity;
      for (let i = 0; i < grid.size; i++) {
        const col = i % grid.cols;
        const d = Math.hypot(grid.centreX(col) - x, grid.centreY(col, (i - col) / grid.cols) - y);
        if (d < bestD) [best, bestD] = [i, d];
      }
      expect(cell).toBe(best);
    }
  });
});

describe('cells in lon/lat and the coverage mask', () => {
  const grid = Grid.over('square', 500, {
    minX: CENTRE_X - 5000,
    minY: CENTRE_Y - 5000,
    maxX: CENTRE_X + 5000,
    maxY: CENTRE_Y + 5000,
  });

  it('gives closed counter-clockwise rings of [lon, lat]', () => {
    const ring = grid.ringLonLat(0, TEST_UTM);
    expect(ring).toHaveLength(5);
    expect(ring[4]).toEqual(ring[0]);
    expect(ring[0]![0]).toBeLessThan(-87); // longitude first, Chicago
    let twiceArea = 0;
    for (let i = 0; i < 4; i++) twiceArea += ring[i]![0] * ring[i + 1]![1] - ring[i + 1]![0] * ring[i]![1];
    expect(twiceArea).toBeGreaterThan(0);
  });

  it('masks the cells whose centres lie outside the synced areas', () => {
    const [lat, lon] = TEST_UTM.inverse(CENTRE_X, CENTRE_Y);
    const mask = coverageMask(grid, TEST_UTM, [{ kind: 'circle', lat, lon, radiusMi: 1 }]);
    const inside = mask.reduce((s, v) => s + v, 0);
    // π·(1609 m)² / (500 m)² ≈ 32.5 cells.
    expect(inside).toBeGreaterThan(26);
    expect(inside).toBeLessThan(40);
    expect(mask[0]).toBe(0);
    expect(coverageMask(grid, TEST_UTM).every((v) => v === 1)).toBe(true);
  });
});
