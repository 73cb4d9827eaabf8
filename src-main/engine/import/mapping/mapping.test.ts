/**
 * Reading records-system files: projected X/Y against PROJ's own `cs2cs` (Debian proj-bin), one
 * known point per kind of system (US survey feet, international feet, metres, UTM), the zones
 * offered by a file's extent, and the date forms (ISO, US, Excel serials, separate time columns).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { milesBetween } from '../../../../src-shared/geo';
import { ColumnMapping } from '../../../../src-shared/importMapping';
import { mapper, namespacedId, type Mapped } from './apply';
import { readClock, readDateTime } from './dates';
import { proposeMapping } from './propose';
import { unprojector, zoneOf, zones, zonesForExtent } from '../../geo/projection';

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
    // Year first with slashes or dots (San Francisco's export), 12- or 24-hour.
    ['2018/12/01 12:25:00 AM', null, '2018-12-01T00:25', null],
    ['2018/12/01 12:25:00 PM', null, '2018-12-01T12:25', null],
    ['2018/12/1 1:05 pm', null, '2018-12-01T13:05', null],
    ['2018/12/01 23:59:59', null, '2018-12-01T23:59', null],
    ['2018.12.01 07:30', null, '2018-12-01T07:30', null],
    ['2018/12/01', '1330', '2018-12-01T13:30', null],
    ['2018-12-01 01:30 PM', null, '2018-12-01T13:30', null],
    // An offset of hours alone (PostgreSQL's text, Charlottesville's export) is an instant.
    ['2025-01-07 02:45:00+00', null, '2025-01-07T02:45', 0],
    ['2025-01-07 02:45:00-05', null, '2025-01-07T02:45', -300],
    ['2025-01-07T02:45+0530', null, '2025-01-07T02:45', 330],
    ['2022/10/18 01:08:59+00', null, '2022-10-18T01:08', 0],
    ['2022/10/18 01:08 PM -05:00', null, '2022-10-18T13:08', -300],
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
      ['2018/02/30 12:25:00 AM', null],
      ['2018/12/01 13:25:00 AM', null],
      ['2018/12/01 12:25:00 AM+99x', null],
      ['2018/12.01', null],
    ] as const) {
      const r = readDateTime(date, time);
      expect('expected' in r, `${date} ${time}`).toBe(true);
    }
    expect(readDateTime('5/10/2025', null, 'iso')).toEqual({ expected: expect.stringMatching(/ISO-8601/) });
    expect(readClock('2400')).toBeNull();
  });

  it('reads a repeated cell the same way each time, per style and with each time column', () => {
    // Cells are read once and remembered: the second reading must answer as the first did.
    for (let k = 0; k < 2; k++) {
      expect(readDateTime('45787', null)).toEqual({ wall: '2025-05-10T00:00', offsetMinutes: null });
      expect(readDateTime('45787', null, 'us')).toEqual({ expected: expect.stringMatching(/US date/) });
      expect(readDateTime('5/10/2025', '1330')).toEqual({ wall: '2025-05-10T13:30', offsetMinutes: null });
      expect(readDateTime('5/10/2025', '0005')).toEqual({ wall: '2025-05-10T00:05', offsetMinutes: null });
      expect(readDateTime('5/10/2025 1:30 PM', ' ')).toEqual({
        wall: '2025-05-10T13:30',
        offsetMinutes: null,
      });
      expect(readDateTime('5/10/2025', '2500')).toEqual({
        expected: expect.stringMatching(/a time such as/),
      });
      expect(readDateTime('2025-05-10T18:30:00Z', null)).toEqual({
        wall: '2025-05-10T18:30',
        offsetMinutes: 0,
      });
      expect(readDateTime('2/30/2025', '1330')).toEqual({
        expected: expect.stringMatching(/real calendar day/),
      });
    }
  });
});

describe('a records-system file mapped', () => {
  // Dallas-style RMS export: case numbers, offence codes, block address, separate date/time, State Plane feet.
  const HEADER = [
    'Incident Number',
    'Offense',
    'Block Address',
    'Date Reported',
    'Time Reported',
    'X Coordinate',
    'Y Coordinate',
    'Beat',
  ];
  const rows: Record<string, string>[] = [
    ['25-000123', '23F', '1200 BLK MAIN ST', '05/10/2025', '1330', '2484000', '6965000', '114'],
    ['25-000124', '13A', '400 BLK ELM ST', '05/11/2025', '0005', '2486500', '6967250', '115'],
    ['25-000125', '90Z', '99 BLK OAK LN', '45787', '0.75', '2483000', '6964000', '114'],
  ].map((r) => Object.fromEntries(HEADER.map((h, k) => [h, r[k] as string])));

  it('is proposed by name and content: id, type, address, date and time, X/Y in Texas North Central (ftUS), the rest kept', () => {
    const { mapping, zones: offered } = proposeMapping(HEADER, rows);
    expect(mapping).toMatchObject({
      id: 'Incident Number',
      type: 'Offense',
      address: 'Block Address',
      date: 'Date Reported',
      time: 'Time Reported',
      location: { kind: 'xy', x: 'X Coordinate', y: 'Y Coordinate' },
      keep: ['Beat'],
    });
    expect(offered.map((z) => z.epsg)).toContain(2276);
  });

  it('maps rows: codes to types, State Plane feet to lat/lon (cs2cs < 1 m), local wall times, ids in the mapping’s namespace', () => {
    const map = mapper(
      ColumnMapping.parse({
        name: 'Dallas RMS',
        id: 'Incident Number',
        type: 'Offense',
        typeMap: { '23F': 'Theft', '13A': 'Assault' },
        address: 'Block Address',
        date: 'Date Reported',
        time: 'Time Reported',
        location: { kind: 'xy', x: 'X Coordinate', y: 'Y Coordinate', epsg: 2276 },
        keep: ['Beat'],
      }),
    );
    const out = rows.map((r, k) => map(r, k + 2));
    const [a, b, c] = out as Mapped[];
    expect([a?.type, b?.type, c?.type]).toEqual(['Theft', 'Assault', '90Z']);
    expect([a?.occurred_local, b?.occurred_local, c?.occurred_local]).toEqual([
      '2025-05-10T13:30',
      '2025-05-11T00:05',
      '2025-05-10T18:00',
    ]);
    expect(a?.timezone).toBe('America/Chicago');
    const truth = cs2cs(2276, 2_484_000, 6_965_000);
    expect(milesBetween(a!.lat, a!.lon, truth.lat, truth.lon) * METRES_PER_MILE).toBeLessThan(1);
    expect(a?.attributes).toBe('{"Beat":"114"}');
    expect(a!.cdid).toBeLessThan(0);
    expect(a!.cdid).toBe(namespacedId('Dallas RMS', '25-000123'));
    expect(namespacedId('Other RMS', '25-000123')).not.toBe(a!.cdid);
    expect(a?.external_id).toBe('25-000123');
  });

  it('gives an external id the same local id as every earlier version did (a re-import finds its rows)', () => {
    // Values from the first release of namespaced ids: the hash must never change.
    expect(namespacedId('Dallas RMS', '25-000123')).toBe(-4321438372762367);
    expect(namespacedId('County CAD', 'C1')).toBe(-58260599543462);
    expect(namespacedId('bench RMS', '25-0000007')).toBe(-4292074624151172);
    expect(namespacedId('é ns', 'row 12')).toBe(-8990278525889071);
    expect(namespacedId('', '')).toBe(-4446763975410779);
    const map = mapper(
      ColumnMapping.parse({
        name: 'County CAD',
        id: 'id',
        type: 't',
        date: 'd',
        location: { kind: 'latlon', lat: 'la', lon: 'lo' },
      }),
    );
    const row = map({ id: 'C1', t: 'Theft', d: '2025-05-10T13:30', la: '32.78', lo: '-96.8' }, 2) as Mapped;
    expect(row.cdid).toBe(-58260599543462);
  });

  it('keeps a Blotter export’s cdid, reads lat/lon, converts an offset instant to the zone’s wall time', () => {
    const map = mapper(
      ColumnMapping.parse({
        name: 'x',
        id: 'cdid',
        type: 't',
        date: 'd',
        location: { kind: 'latlon', lat: 'la', lon: 'lo' },
      }),
    );
    expect(
      map({ cdid: '42', t: 'Theft', d: '2025-05-10T18:30:00Z', la: '41.88', lo: '-87.63' }, 2),
    ).toMatchObject({
      cdid: 42,
      occurred_local: '2025-05-10T13:30',
      occurred_utc: '2025-05-10T18:30:00.000Z',
      timezone: 'America/Chicago',
    });
  });

  it('names the column and what was expected', () => {
    const map = mapper(
      ColumnMapping.parse({
        name: 'x',
        id: 'id',
        type: 't',
        date: 'd',
        time: 'h',
        location: { kind: 'xy', x: 'x', y: 'y', epsg: 2276 },
      }),
    );
    const ok = { id: '1', t: 'Theft', d: '5/10/2025', h: '1330', x: '2484000', y: '6965000' };
    expect(map({ ...ok, x: 'n/a' }, 7)).toEqual({
      column: 'x',
      expected: expect.stringMatching(/X coordinate/),
    });
    expect(map({ ...ok, d: '2025-13-01' }, 7)).toEqual({
      column: 'd',
      expected: expect.stringMatching(/date/),
    });
    expect(map({ ...ok, h: '9am-ish' }, 7)).toEqual({ column: 'h', expected: expect.stringMatching(/time/) });
    expect(map({ ...ok, t: '' }, 7)).toEqual({ column: 't', expected: expect.stringMatching(/offence/) });
  });
});
