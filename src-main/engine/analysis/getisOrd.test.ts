import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { binOf, defaultCellSize, giStar, hotSpots, hotSpotsOf } from './getisOrd';
import { Grid } from './grid';
import { hotSpotGeoJson } from './hotSpotExport';
import { benjaminiHochberg, twoSidedP } from './stats';
import { CENTRE_X, CENTRE_Y, concat, discPoints, TEST_UTM, toLatLon, uniformPoints } from './testPoints';

const all = (n: number) => new Uint8Array(n).fill(1);

describe('Gi* by hand on a 5×5 grid', () => {
  // Every cell empty but the centre, with 25: n = 25, mean 1, S = √(625/25 − 1) = √24. A band of one
  // cell: the cell and its four edge neighbours (fewer at the border).
  const grid = Grid.sized('square', 100, 0, 0, 5, 5);
  const counts = new Int32Array(25);
  counts[12] = 25;
  const z = giStar(grid, counts, all(25), 100);

  it('gives the hand-computed z of the centre, a neighbour, an edge and a corner', () => {
    // Centre and its neighbours: k = 5, L = 25 → (25 − 5)/(√24·√((125 − 25)/24)) = 20/10 = 2.
    expect(z[12]).toBeCloseTo(2, 12);
    expect(z[7]).toBeCloseTo(2, 12);
    expect(z[13]).toBeCloseTo(2, 12);
    // Corner: k = 3, L = 0 → −3/(√24·√((75 − 9)/24)) = −3/√66.
    expect(z[0]).toBeCloseTo(-3 / Math.sqrt(66), 12);
    // Middle of an edge, not touching the centre: k = 4, L = 0 → −4/√84.
    expect(z[2]).toBeCloseTo(-4 / Math.sqrt(84), 12);
    // Diagonal to the centre: k = 5, L = 0 → −5/10.
    expect(z[6]).toBeCloseTo(-0.5, 12);
  });

  it('takes p two-sided from the normal, p_fdr by Benjamini–Hochberg, and bins by p_fdr', () => {
    expect(twoSidedP(2)).toBeCloseTo(0.0455003, 6);
    expect(twoSidedP(-1.959964)).toBeCloseTo(0.05, 6);
    expect(twoSidedP(5)).toBeCloseTo(5.733e-7, 9);
    // R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "BH") = 0.02 0.04 0.04 0.02
    const q = benjaminiHochberg(Float64Array.of(0.01, 0.04, 0.03, 0.005));
    expect(Array.from(q).map((v) => Number(v.toFixed(10)))).toEqual([0.02, 0.04, 0.04, 0.02]);
    expect([binOf(3, 0.009), binOf(-3, 0.03), binOf(2, 0.07), binOf(2, 0.1), binOf(-1, 0.2)]).toEqual([
      3, -2, 1, 0, 0,
    ]);
  });

  it('leaves masked cells out of n and out of the neighbourhoods', () => {
    const mask = all(25);
    mask[0] = 0;
    const zm = giStar(grid, counts, mask, 100);
    expect(zm[0]).toBeNaN();
    // n = 24, mean 25/24; the cell right of the lost corner has k = 3 (itself, right, up).
    const n = 24;
    const mean = 25 / 24;
    const s = Math.sqrt(625 / n - mean * mean);
    expect(zm[1]).toBeCloseTo((0 - 3 * mean) / (s * Math.sqrt((n * 3 - 9) / (n - 1))), 12);
  });
});

describe("Gi* against R's spdep::localG (self included)", () => {
  // fixtures/gistar-spdep.R made the fixture once, with spdep 1.2.7.
  const csv = readFileSync(path.join(__dirname, 'fixtures', 'gistar-spdep.csv'), 'utf8')
    .trim()
    .split('\n');
  const rows = csv.slice(1).map((line) => line.split(','));
  for (const kind of ['square', 'hexagon'] as const) {
    it(`agrees on a ${kind} grid`, () => {
      const mine = rows.filter((r) => r[0] === `"${kind}"`).map((r) => r.slice(1).map(Number));
      const [cols, nRows, size, band] = mine[0]!;
      const grid = Grid.sized(kind, size!, 0, 0, cols!, nRows!);
      const counts = new Int32Array(grid.size);
      for (const [, , , , col, row, count] of mine) counts[row! * cols! + col!] = count!;
      const z = giStar(grid, counts, all(grid.size), band!);
      expect(mine.length).toBe(grid.size);
      for (const [, , , , col, row, , giZ] of mine) expect(z[row! * cols! + col!]).toBeCloseTo(giZ!, 9);
    });
  }
});

describe('Gi* statistical properties', () => {
  it('on uniformly random incidents, at most 1 % of cells are significant at 95 % after FDR in ≥ 95 of 100 runs', () => {
    let quiet = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const p = uniformPoints(3000, 5000, seed);
      const result = hotSpotsOf(p.x, p.y, TEST_UTM);
      let significant = 0;
      for (let i = 0; i < result.grid.size; i++) if ((result.pFdr[i] as number) < 0.05) significant++;
      if (significant <= 0.01 * result.parameters.cells) quiet++;
    }
    expect(quiet).toBeGreaterThanOrEqual(95);
  });

  it('finds a planted cluster as a hot spot at 99 %, and nothing far from it', () => {
    const p = concat(
      uniformPoints(3000, 5000, 11),
      discPoints(120, CENTRE_X + 1000, CENTRE_Y - 500, 150, 12),
    );
    const result = hotSpotsOf(p.x, p.y, TEST_UTM);
    const { grid } = result;
    const at = grid.cellOf(CENTRE_X + 1000, CENTRE_Y - 500);
    expect(result.bin[at]).toBe(3);
    for (let i = 0; i < grid.size; i++) {
      if (result.bin[i] !== 3) continue;
      const col = i % grid.cols;
      const d = Math.hypot(
        grid.centreX(col) - (CENTRE_X + 1000),
        grid.centreY(col, (i - col) / grid.cols) - (CENTRE_Y - 500),
      );
      expect(d).toBeLessThan(150 + 3 * grid.cellSize);
    }
  });
});

describe('hot spot defaults and GeoJSON', () => {
  it('defaults to ~2,500 cells over the extent, at least 100 m, and a band of two cells', () => {
    expect(defaultCellSize('square', 10_000, 10_000)).toBe(200);
    expect(defaultCellSize('square', 2000, 2000)).toBe(100);
    const hex = defaultCellSize('hexagon', 10_000, 10_000);
    expect(((Math.sqrt(3) / 2) * hex * hex * 2500) / 1e8).toBeCloseTo(1, 9);
    const p = toLatLon(uniformPoints(500, 10_000, 3));
    const r = hotSpots(p.lat, p.lon);
    expect(r.parameters.grid).toBe('square');
    expect(r.parameters.cell_size_m).toBeCloseTo(r.parameters.distance_band_m / 2, 9);
    expect(r.parameters.utm_epsg).toBe(32616);
  });

  it('lists every computed cell, empty ones included, with row, col, count, gi_z, p, p_fdr, bin and the parameters', () => {
    const p = toLatLon(concat(uniformPoints(400, 4000, 5), discPoints(60, CENTRE_X, CENTRE_Y, 100, 6)));
    const [lat, lon] = TEST_UTM.inverse(CENTRE_X, CENTRE_Y);
    const coverage = [{ kind: 'circle' as const, lat, lon, radiusMi: 1 }];
    const r = hotSpots(p.lat, p.lon, { grid: 'hexagon', cellSizeM: 250, coverage });
    const fc = hotSpotGeoJson(r, {
      filters: { types: ['Burglary'] },
      coverage: { from: '2024-01-01', to: '2024-06-30' },
    });
    expect(fc.features).toHaveLength(r.parameters.cells);
    expect(r.parameters.masked_cells).toBeGreaterThan(0);
    expect(fc.features.some((f) => f.properties.count === 0)).toBe(true);
    expect(Object.keys(fc.features[0]!.properties).sort()).toEqual([
      'bin',
      'col',
      'count',
      'gi_z',
      'p',
      'p_fdr',
      'row',
    ]);
    expect(fc.features[0]!.geometry.coordinates[0]).toHaveLength(7);
    expect(fc.parameters).toMatchObject({
      grid: 'hexagon',
      cell_size_m: 250,
      distance_band_m: 500,
      utm_epsg: 32616,
      filters: { types: ['Burglary'] },
      coverage: { from: '2024-01-01', to: '2024-06-30' },
    });
    expect(fc.features.reduce((s, f) => s + (f.properties.count as number), 0)).toBeLessThanOrEqual(460);
    expect(fc.features.some((f) => f.properties.bin === 3)).toBe(true);
  });
});
