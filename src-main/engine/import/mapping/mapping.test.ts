/**
 * Reading records-system files: projected X/Y against PROJ's own `cs2cs` (Debian proj-bin), one
 * known point per kind of system (US survey feet, international feet, metres, UTM), the zones
 * offered by a file's extent, and the date forms (ISO, US, Excel serials, separate time columns).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { milesBetween } from '../../../../src-shared/geo';
import { readClock, readDateTime } from './dates';
import { unprojector, zoneOf, zones, zonesForExtent } from './projection';

const METRES_PER_MILE = 1609.344;

/** cs2cs: x y in EPSG:code → lat lon in NAD83 geographic (EPSG:4269). */
function cs2cs(epsg: number, x: number, y: number): { lat: number; lon: number } {
  const out = execFileSync('cs2cs', ['-f', '%.10f', `EPSG:${epsg}`, 'EPSG:4269'], {
    input: `${x} ${y}\n`,
  }).toString();
  const [lat, lon] = out.trim().split(/\s+/).map(Number) as [number, number];
  return { lat, lon };
}

describe('projected X/Y', () => {
  it.each([
    [2276, 2_484_000, 6_965_000, 'us-ft'], // Texas North Central (ftUS): Dallas
    [2253, 13_100_000, 280_000, 'ft'], // Michigan South (ft, international): Lansing area
    [32138, 757_000, 2_123_000, 'm'], // Texas North Central, metres
    [2229, 6_480_000, 1_840_000, 'us-ft'], // California zone 5 (ftUS): Los Angeles
    [26916, 448_000, 4_637_000, 'm'], // NAD83 / UTM 16N: Chicago
    [32618, 584_000, 4_507_000, 'm'], // WGS 84 / UTM 18N: New York
  ])('EPSG:%i matches cs2cs to under a metre', (epsg, x, y, unit) => {
    expect(zoneOf(epsg)?.unit).toBe(unit);
    const ours = unprojector({ epsg })(x, y);
    const truth = cs2cs(epsg, x, y);
    expect(milesBetween(ours.lat, ours.lon, truth.lat, truth.lon) * METRES_PER_MILE).toBeLessThan(1);
  });

  it('reads a .prj (WKT) the user supplies', () => {
    const wkt = execFileSync('projinfo', ['EPSG:2276', '-o', 'WKT1_ESRI', '-q']).toString();
    const ours = unprojector({ wkt })(2_484_000, 6_965_000);
    const truth = cs2cs(2276, 2_484_000, 6_965_000);
    expect(milesBetween(ours.lat, ours.lon, truth.lat, truth.lon) * METRES_PER_MILE).toBeLessThan(1);
  });

  it('bundles every NAD83 State Plane zone in metres, US feet and international feet, and the UTM zones', () => {
    const sp = zones.filter((z) => z.kind === 'state-plane');
    expect(sp.filter((z) => z.unit === 'm').length).toBeGreaterThan(110);
    expect(sp.filter((z) => z.unit === 'us-ft').length).toBeGreaterThan(80);
    expect(sp.filter((z) => z.unit === 'ft').length).toBeGreaterThan(10);
    expect(zones.filter((z) => z.kind === 'utm').length).toBeGreaterThanOrEqual(60);
  });

  it('offers the zones a file’s extent fits: Dallas in US feet is Texas North Central (ftUS)', () => {
    const offered = zonesForExtent({ minX: 2_460_000, minY: 6_940_000, maxX: 2_510_000, maxY: 6_990_000 });
    expect(offered.map((z) => z.epsg)).toContain(2276);
    expect(offered.map((z) => z.epsg)).not.toContain(2229);
    expect(offered.length).toBeLessThan(20);
  });
});

describe('dates and times', () => {
  it.each([
    ['2025-05-10T13:30', null, '2025-05-10T13:30', null],
    ['2025-05-10 13:30:15', null, '2025-05-10T13:30', null],
    ['2025-05-10T18:30:00Z', null, '2025-05-10T18:30', 0],
    ['2025-05-10T13:30-05:00', null, '2025-05-10T13:30', -300],
    ['2025-05-10', '1330', '2025-05-10T13:30', null],
    ['5/10/2025 1:30 PM', null, '2025-05-10T13:30', null],
    ['05/10/25 12:05 AM', null, '2025-05-10T00:05', null],
    ['5/10/2025', '13:30:00', '2025-05-10T13:30', null],
    ['5/10/2025', '1:30 pm', '2025-05-10T13:30', null],
    ['45787', '0.5625', '2025-05-10T13:30', null],
    ['45787.5625', null, '2025-05-10T13:30', null],
    ['45787', null, '2025-05-10T00:00', null],
  ])('%s + %s → %s', (date, time, wall, offset) => {
    expect(readDateTime(date, time)).toEqual({ wall, offsetMinutes: offset });
  });

  it('says what was expected for a date it cannot read', () => {
    for (const [date, time] of [
      ['2025-02-30', null],
      ['13/40/2025', null],
      ['yesterday', null],
      ['5/10/2025', '25:00'],
      ['5/10/2025 13:30 PM', null],
    ] as const) {
      const r = readDateTime(date, time);
      expect('expected' in r, `${date} ${time}`).toBe(true);
    }
    expect(readDateTime('5/10/2025', null, 'iso')).toEqual({ expected: expect.stringMatching(/ISO-8601/) });
    expect(readClock('2400')).toBeNull();
  });
});
