import { describe, expect, it } from 'vitest';
import { centralMeridian, UtmProjection, utmZoneOf } from './utm';

// Reference values from PROJ 9 through GDAL 3.6.2 (`gdaltransform -s_srs EPSG:4326 -t_srs EPSG:326zz`).
const FORWARD: [lat: number, lon: number, epsg: number, e: number, n: number][] = [
  [41.8781, -87.6298, 32616, 447741.916717185, 4636433.68398047],
  [40.7128, -74.006, 32618, 583959.372324085, 4507350.99824332],
  [-33.8688, 151.2093, 32756, 334368.633648097, 6250948.34538501],
  [34.0522, -118.2437, 32611, 385213.913027445, 3768641.4898051],
  [59.91, 10.75, 32632, 597868.381063372, 6642681.51016147],
  [-22.9068, -43.1729, 32723, 687394.593291122, 7465634.12771433],
  // 3.5° east of zone 16's meridian (outside the zone proper: the series still holds to a mm).
  [41.2, -84.5, 32616, 709625.9143978, 4563972.77537855],
  [0, 12, 32633, 166021.443080542, 0],
];
const INVERSE: [epsg: number, e: number, n: number, lat: number, lon: number][] = [
  [32616, 450000, 4650000, 42.0004278220988, -87.6037391022965],
  [32756, 700000, 6200000, -34.3220050521924, 155.17377076157],
];

const projectionOf = (epsg: number) => new UtmProjection(epsg % 100, epsg >= 32700);

describe('UTM', () => {
  it('picks the zone and EPSG code of a place, with the Norway and Svalbard exceptions', () => {
    expect(utmZoneOf(41.88, -87.63)).toEqual({ zone: 16, south: false, epsg: 32616 });
    expect(utmZoneOf(-33.87, 151.21)).toEqual({ zone: 56, south: true, epsg: 32756 });
    expect(utmZoneOf(60.39, 5.32).zone).toBe(32); // Bergen: 32V, not 31
    expect(utmZoneOf(78.22, 15.65).zone).toBe(33); // Longyearbyen
    expect(utmZoneOf(10, 180).zone).toBe(1);
    expect(utmZoneOf(10, 179.99).zone).toBe(60);
    expect(centralMeridian(16)).toBe(-87);
  });

  it('projects known points as PROJ does, to a millimetre', () => {
    for (const [lat, lon, epsg, e, n] of FORWARD) {
      const [x, y] = projectionOf(epsg).forward(lat, lon);
      expect(Math.abs(x - e), `${lat},${lon} easting`).toBeLessThan(0.001);
      expect(Math.abs(y - n), `${lat},${lon} northing`).toBeLessThan(0.001);
    }
  });

  it('inverts known points as PROJ does, and round-trips to under a millimetre', () => {
    for (const [epsg, e, n, lat, lon] of INVERSE) {
      const [la, lo] = projectionOf(epsg).inverse(e, n);
      expect(Math.abs(la - lat)).toBeLessThan(1e-8);
      expect(Math.abs(lo - lon)).toBeLessThan(1e-8);
    }
    const p = new UtmProjection(16);
    for (const [lat, lon] of [
      [41.8781, -87.6298],
      [0.001, -90.9],
      [70, -84],
      [-45, -88.2],
    ] as const) {
      const [x, y] = p.forward(lat, lon);
      const [la, lo] = p.inverse(x, y);
      const [x2, y2] = p.forward(la, lo);
      expect(Math.hypot(x2 - x, y2 - y)).toBeLessThan(1e-6);
      expect(Math.abs(la - lat)).toBeLessThan(1e-9);
      expect(Math.abs(lo - lon)).toBeLessThan(1e-9);
    }
  });

  it('projects columns as it projects points', () => {
    const p = new UtmProjection(18);
    const { x, y } = p.forwardColumns(Float64Array.of(40.7, 40.8), Float64Array.of(-74, -73.9));
    expect([x[1], y[1]]).toEqual(p.forward(40.8, -73.9));
  });
});
