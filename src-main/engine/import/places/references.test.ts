/**
 * Reference files for the locator: a TIGER/Line-shaped centre-line Shapefile the test writes byte
 * by byte (PolyLine records, FULLNAME and LFROMADD/LTOADD/RFROMADD/RTOADD in the .dbf), checked
 * against positions worked out by hand; address points as CSV and GeoJSON.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { zipOf } from '../../boundaries/testZip';
import { Locator } from './locator';
import { readReference, ReferenceProblem } from './references';
import { characterDbf, polylineShp, type LineRecord } from './testShapefile';

const NAD83 =
  'GEOGCS["GCS_North_American_1983",DATUM["D_North_American_1983",SPHEROID["GRS_1980",6378137,298.257222101]],PRIMEM["Greenwich",0],UNIT["Degree",0.017453292519943295]]';
const COS = Math.cos((38.029 * Math.PI) / 180);
const LEG = 0.009; // degrees of latitude: the L-shaped street's first leg; its second as long, eastward

const EDGES: LineRecord[] = [
  {
    // A straight street, west to east: odd numbers on the left, even on the right.
    parts: [
      [
        [-78.5, 38.03],
        [-78.49, 38.03],
      ],
    ],
    fields: { FULLNAME: 'N Main St', LFROMADD: '101', LTOADD: '199', RFROMADD: '100', RTOADD: '198' },
  },
  {
    // An L: north 0.009° from (38.020, −78.490), then east as many metres.
    parts: [
      [
        [-78.49, 38.02],
        [-78.49, 38.02 + LEG],
        [-78.49 + LEG / COS, 38.02 + LEG],
      ],
    ],
    fields: { FULLNAME: 'Elliott Avenue', LFROMADD: '801', LTOADD: '899', RFROMADD: '800', RTOADD: '898' },
  },
  {
    // Meets N Main St's east end.
    parts: [
      [
        [-78.49, 38.03],
        [-78.49, 38.04],
      ],
    ],
    fields: { FULLNAME: 'Ridge St', LFROMADD: '', LTOADD: '', RFROMADD: '100', RTOADD: '198' },
  },
  // No range: a path. Left out.
  {
    parts: [
      [
        [-78.48, 38.0],
        [-78.47, 38.0],
      ],
    ],
    fields: { FULLNAME: 'Rivanna Trl', LFROMADD: '', LTOADD: '', RFROMADD: '', RTOADD: '' },
  },
];

const NAMES = ['FULLNAME', 'LFROMADD', 'LTOADD', 'RFROMADD', 'RTOADD'];

function writeEdges(dir: string, records = EDGES, names = NAMES): string {
  writeFileSync(join(dir, 'tl_2024_51540_edges.shp'), polylineShp(records));
  writeFileSync(
    join(dir, 'tl_2024_51540_edges.dbf'),
    characterDbf(
      names,
      records.map((r) => r.fields),
    ),
  );
  writeFileSync(join(dir, 'tl_2024_51540_edges.prj'), NAD83);
  return join(dir, 'tl_2024_51540_edges.shp');
}

function locatorOf(file: string): Locator {
  const ref = readReference(file);
  if (ref.kind !== 'centre lines') throw new Error('expected centre lines');
  const locator = new Locator();
  for (const s of ref.segments) locator.addSegment(s);
  return locator;
}

describe('TIGER/Line centre lines', () => {
  it('reads the PolyLine records and interpolates along them to hand-computed positions', () => {
    const dir = mkdtempSync(join(tmpdir(), 'edges-'));
    const ref = readReference(writeEdges(dir));
    expect(ref.kind).toBe('centre lines');
    if (ref.kind !== 'centre lines') return;
    expect(ref.segments.map((s) => s.street)).toEqual(['N MAIN ST', 'ELLIOTT AVE', 'RIDGE ST']);
    expect(ref.skipped).toBe(1);
    const locator = locatorOf(join(dir, 'tl_2024_51540_edges.shp'));

    // 150, even: the right side, 100 → 198: 50/98 of the way east.
    const even = locator.place('150 N MAIN ST');
    expect(even).toMatchObject({ method: 'interpolated' });
    expect(even?.lat).toBeCloseTo(38.03, 9);
    expect(even?.lon).toBeCloseTo(-78.5 + (0.01 * 50) / 98, 9);
    // 151, odd: the left side, 101 → 199: also 50/98.
    expect(locator.place('151 North Main Street')?.lon).toBeCloseTo(-78.5 + (0.01 * 50) / 98, 9);

    // "800 ELLIOTT AVE", a block: its middle, 850, on the even side (800 → 898): 50/98 of two
    // equal legs is 1.0204 legs — just past the corner, 0.0204 of the way along the eastward leg.
    const block = locator.place('800 ELLIOTT AVE');
    expect(block?.lat).toBeCloseTo(38.02 + LEG, 9);
    expect(block?.lon).toBeCloseTo(-78.49 + (2 * (50 / 98) - 1) * (LEG / COS), 7);
    // 874: 74/98 → 1.5102 legs: halfway and a bit along the second.
    const house = locator.place('874 Elliott Av');
    expect(house?.lat).toBeCloseTo(38.02 + LEG, 9);
    expect(house?.lon).toBeCloseTo(-78.49 + (2 * (74 / 98) - 1) * (LEG / COS), 7);
    // 820: 20/98 → 0.408 legs, on the first (northward) leg.
    const first = locator.place('820 ELLIOTT AVE');
    expect(first?.lon).toBeCloseTo(-78.49, 9);
    expect(first?.lat).toBeCloseTo(38.02 + 2 * (20 / 98) * LEG, 7);
    expect(first?.uncertaintyM).toBeGreaterThan(0);

    // Outside every range: not placed.
    expect(locator.place('950 ELLIOTT AVE')).toBeNull();
    // Two centre lines that share a corner: the intersection.
    expect(locator.place('N MAIN ST/RIDGE ST')).toEqual({
      lat: 38.03,
      lon: -78.49,
      method: 'intersection',
      uncertaintyM: 15,
    });
  });

  it('reads the same lines from a zip (as the Census Bureau publishes them)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'edges-'));
    const zip = join(dir, 'tl_2024_51540_edges.zip');
    writeFileSync(
      zip,
      zipOf([
        { name: 'tl_2024_51540_edges.shp', data: polylineShp(EDGES) },
        {
          name: 'tl_2024_51540_edges.dbf',
          data: characterDbf(
            NAMES,
            EDGES.map((r) => r.fields),
          ),
        },
        { name: 'tl_2024_51540_edges.prj', data: NAD83 },
      ]),
    );
    expect(locatorOf(zip).place('150 N MAIN ST')?.lon).toBeCloseTo(-78.5 + (0.01 * 50) / 98, 9);
  });

  it('refuses lines without names and address ranges, saying what it has', () => {
    const dir = mkdtempSync(join(tmpdir(), 'edges-'));
    const file = writeEdges(
      dir,
      EDGES.map((r) => ({ ...r, fields: { NAME: r.fields.FULLNAME as string } })),
      ['NAME'],
    );
    expect(() => readReference(file)).toThrow(ReferenceProblem);
    expect(() => readReference(file)).toThrow(/FULLNAME.*it has NAME/);
  });
});

describe('address points', () => {
  it('reads a CSV of house numbers and streets, and one of whole addresses', () => {
    const dir = mkdtempSync(join(tmpdir(), 'points-'));
    writeFileSync(
      join(dir, 'points.csv'),
      '\uFEFFADD_NUMBER,STREET_NAME,LATITUDE,LONGITUDE\n812,Elliott Avenue,38.0221,-78.4912\n,Elliott Ave,38.1,-78.4\n',
    );
    const ref = readReference(join(dir, 'points.csv'));
    expect(ref).toEqual({
      kind: 'address points',
      points: [{ street: 'ELLIOTT AVE', number: 812, lat: 38.0221, lon: -78.4912 }],
      skipped: 1,
    });
    writeFileSync(
      join(dir, 'whole.csv'),
      'Address,Y,X\n"812 Elliott Ave, Charlottesville",38.0221,-78.4912\n',
    );
    expect(readReference(join(dir, 'whole.csv'))).toMatchObject({
      points: [{ street: 'ELLIOTT AVE', number: 812 }],
    });
  });

  it('reads GeoJSON points, and an address point places its own number exactly', () => {
    const dir = mkdtempSync(join(tmpdir(), 'points-'));
    writeFileSync(
      join(dir, 'points.geojson'),
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            geometry: { type: 'Point', coordinates: [-78.4912, 38.0221] },
            properties: { number: '812', street: 'ELLIOTT AVE' },
          },
        ],
      }),
    );
    const ref = readReference(join(dir, 'points.geojson'));
    if (ref.kind !== 'address points') throw new Error('expected points');
    const locator = new Locator();
    for (const p of ref.points) locator.addAddressPoint(p.street, p.number, p.lat, p.lon);
    expect(locator.place('812 ELLIOTT AVE')).toEqual({
      lat: 38.0221,
      lon: -78.4912,
      method: 'address point',
      uncertaintyM: 15,
    });
    // Its block learns it too.
    expect(locator.place('800 ELLIOTT AVE')).toMatchObject({ method: 'block', lat: 38.0221 });
  });
});
