import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { METRES_PER_MILE } from '../../../src-shared/geo';
import { defaultRadius, kdeOf, kernelDensity } from './kde';
import { kdeGeoJson, kdeGeoTiff, kdeRaster } from './kdeExport';
import { AnalysisRefused } from './points';
import { CENTRE_X, CENTRE_Y, concat, discPoints, TEST_UTM, toLatLon, uniformPoints } from './testPoints';

const ring = (n: number, radius: number) => {
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = CENTRE_X + radius * Math.cos((2 * Math.PI * i) / n);
    y[i] = CENTRE_Y + radius * Math.sin((2 * Math.PI * i) / n);
  }
  return { x, y };
};

describe('kernel density', () => {
  it("takes ArcGIS's default radius: 0.9·min(SD, √(1/ln 2)·Dm)·n^−0.2", () => {
    // 16 points 100 m and 16 points 300 m from the mean centre: SD = √50,000 ≈ 223.6 m,
    // Dm = 200 m (√(1/ln 2)·200 ≈ 240.2 m), n^−0.2 = 1/2 → r = 0.9 · 223.6 / 2.
    const p = concat(ring(16, 100), ring(16, 300));
    expect(defaultRadius(p.x, p.y)).toBeCloseTo((0.9 * Math.sqrt(50_000)) / 2, 6);
    const result = kdeOf(p.x, p.y, TEST_UTM);
    expect(result.parameters.radius_m).toBeCloseTo(100.62, 2);
    expect(result.parameters.cell_size_m).toBeCloseTo(10.062, 3);
    expect(result.parameters.radius_default).toBe(true);
  });

  it('sums the quartic kernel at each cell centre, in incidents per square mile', () => {
    const p = concat(uniformPoints(60, 3000, 1), discPoints(40, CENTRE_X, CENTRE_Y, 200, 2));
    const r = 600;
    const result = kdeOf(p.x, p.y, TEST_UTM, { radiusM: r, cellSizeM: 150 });
    const { grid } = result;
    for (const cell of [0, 137, Math.floor(grid.size / 2), grid.size - 1]) {
      const col = cell % grid.cols;
      const cx = grid.centreX(col);
      const cy = grid.centreY(col, (cell - col) / grid.cols);
      let sum = 0;
      for (let i = 0; i < p.x.length; i++) {
        const d = Math.hypot(p.x[i]! - cx, p.y[i]! - cy);
        if (d < r) sum += (3 / (Math.PI * r * r)) * (1 - (d / r) ** 2) ** 2;
      }
      expect(result.density[cell]).toBeCloseTo(sum * METRES_PER_MILE ** 2, 6);
    }
    // The planted cluster is the peak.
    const peak = result.density.indexOf(result.max);
    const col = peak % grid.cols;
    expect(
      Math.hypot(grid.centreX(col) - CENTRE_X, grid.centreY(col, (peak - col) / grid.cols) - CENTRE_Y),
    ).toBeLessThan(300);
  });

  it('refuses fewer than 30 incidents', () => {
    const p = toLatLon(uniformPoints(29, 1000, 3));
    expect(() => kernelDensity(p.lat, p.lon)).toThrow(AnalysisRefused);
    expect(() => kernelDensity(p.lat, p.lon)).toThrow(/at least 30 incidents/);
  });

  it('masks cells outside the coverage with 0', () => {
    const p = toLatLon(uniformPoints(200, 6000, 4));
    const [lat, lon] = TEST_UTM.inverse(CENTRE_X, CENTRE_Y);
    const result = kernelDensity(p.lat, p.lon, {
      radiusM: 800,
      cellSizeM: 200,
      coverage: [{ kind: 'circle', lat, lon, radiusMi: 1 }],
    });
    expect(result.mask.some((m) => m === 0)).toBe(true);
    result.mask.forEach((m, k) => {
      if (!m) expect(result.density[k]).toBe(0);
    });
  });
});

describe('kernel density exports', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'blotter-kde-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const p = toLatLon(concat(uniformPoints(300, 8000, 5), discPoints(100, CENTRE_X + 1000, CENTRE_Y, 300, 6)));
  const result = kernelDensity(p.lat, p.lon, { radiusM: 1000, cellSizeM: 250 });

  it('writes a GeoJSON grid of the cells with density, with the parameters', () => {
    const fc = kdeGeoJson(result, { filters: { types: ['Burglary'] } });
    expect(fc.parameters).toMatchObject({
      kernel: 'quartic',
      radius_m: 1000,
      cell_size_m: 250,
      utm_epsg: 32616,
    });
    expect(fc.parameters.filters).toEqual({ types: ['Burglary'] });
    expect(fc.features.length).toBe(Array.from(result.density).filter((v) => v > 0).length);
    const f = fc.features[0]!;
    expect(f.geometry.coordinates[0]).toHaveLength(5);
    expect(f.properties.density).toBeGreaterThan(0);
  });

  it('writes a GeoTIFF that gdalinfo reads as EPSG:4326 Float32 with nodata 0', () => {
    const file = path.join(dir, 'kde.tif');
    writeFileSync(file, kdeGeoTiff(result));
    let out: string;
    try {
      out = execFileSync('gdalinfo', ['-json', '-stats', file], { encoding: 'utf8' });
    } catch (error) {
      throw new Error(`gdalinfo failed (Debian: apt-get install gdal-bin): ${String(error)}`);
    }
    const info = JSON.parse(out) as {
      driverShortName: string;
      size: [number, number];
      geoTransform: number[];
      coordinateSystem: { wkt: string };
      bands: { type: string; noDataValue: number; maximum: number; minimum: number }[];
    };
    const raster = kdeRaster(result);
    expect(info.driverShortName).toBe('GTiff');
    expect(info.size).toEqual([raster.width, raster.height]);
    expect(info.coordinateSystem.wkt).toContain('ID["EPSG",4326]');
    expect(info.geoTransform[0]).toBeCloseTo(raster.west, 9);
    expect(info.geoTransform[3]).toBeCloseTo(raster.north, 9);
    expect(info.geoTransform[1]).toBeCloseTo(raster.xRes, 12);
    expect(info.geoTransform[5]).toBeCloseTo(-raster.yRes, 12);
    const band = info.bands[0]!;
    expect(band.type).toBe('Float32');
    expect(band.noDataValue).toBe(0);
    expect(band.minimum).toBeGreaterThan(0);
    // Nearest-neighbour resampling keeps the grid's values: never above the grid's peak, near it.
    expect(band.maximum).toBeLessThanOrEqual(result.max * (1 + 1e-6));
    expect(band.maximum).toBeGreaterThan(result.max * 0.8);
  });
});
