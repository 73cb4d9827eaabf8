/**
 * Boundary files made to hurt the reader: a Shapefile whose records or .dbf header lie about their
 * lengths and counts, zips with symbolic links or a name twice, KML with character references that
 * are no characters, GeoJSON nested past reason, and names carrying control characters or a
 * property called "constructor". Each is refused with a BoundaryProblem saying why (never a
 * RangeError from deep inside, never minutes of work or gigabytes of memory), or read as a user
 * would expect.
 */
import { describe, expect, it } from 'vitest';
import { BoundaryProblem, featureName, LIMITS } from './boundaryFile';
import { readBoundaryBytes } from './readBoundaries';
import { zipOf } from './testZip';
import { readZip } from './zipRead';

const problem = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(BoundaryProblem);
    return (error as Error).message;
  }
  throw new Error('expected a BoundaryProblem');
};

/** A .shp of the given record bodies (each: shape type, then its bytes). */
function shp(records: Buffer[]): Buffer {
  const head = Buffer.alloc(100);
  head.writeInt32BE(9994, 0);
  head.writeInt32LE(1000, 28);
  const parts: Buffer[] = [head];
  records.forEach((body, i) => {
    const rh = Buffer.alloc(8);
    rh.writeInt32BE(i + 1, 0);
    rh.writeInt32BE(body.length / 2, 4);
    parts.push(rh, body);
  });
  const out = Buffer.concat(parts);
  out.writeInt32BE(out.length / 2, 24);
  return out;
}

/** A polygon record body with the given part starts, point count and points (x, y pairs). */
function polygon(partStarts: number[], n: number, points: [number, number][]): Buffer {
  const b = Buffer.alloc(44 + 4 * partStarts.length + 16 * points.length);
  b.writeInt32LE(5, 0);
  b.writeInt32LE(partStarts.length, 36);
  b.writeInt32LE(n, 40);
  partStarts.forEach((s, k) => b.writeInt32LE(s, 44 + 4 * k));
  points.forEach(([x, y], i) => {
    b.writeDoubleLE(x, 44 + 4 * partStarts.length + 16 * i);
    b.writeDoubleLE(y, 52 + 4 * partStarts.length + 16 * i);
  });
  return b;
}

const square: [number, number][] = [
  [-87.64, 41.88],
  [-87.64, 41.89],
  [-87.63, 41.89],
  [-87.63, 41.88],
  [-87.64, 41.88],
];

/** A .dbf with one text field NAME (10 wide) and the given rows; header fields can be made to lie. */
function dbf(rows: string[], lie: { count?: number; recordLen?: number } = {}): Buffer {
  const head = Buffer.alloc(32 + 32 + 1);
  head[0] = 3;
  head.writeUInt32LE(lie.count ?? rows.length, 4);
  head.writeUInt16LE(65, 8);
  head.writeUInt16LE(lie.recordLen ?? 11, 10);
  head.write('NAME', 32, 'latin1');
  head[32 + 11] = 'C'.charCodeAt(0);
  head[32 + 16] = 10;
  head[64] = 0x0d;
  const body = rows.map((r) => Buffer.from(` ${r.padEnd(10).slice(0, 10)}`, 'latin1'));
  return Buffer.concat([head, ...body]);
}

const shapefile = (shpBytes: Buffer, extra: { name: string; data: Buffer | string }[] = []) =>
  zipOf([{ name: 'beats.shp', data: shpBytes }, ...extra]);

describe('a Shapefile whose records lie', () => {
  it('reads an honest one (the fixture the lies are made from)', () => {
    const file = readBoundaryBytes(
      'beats.zip',
      shapefile(shp([polygon([0], 5, square)]), [{ name: 'beats.dbf', data: dbf(['0111']) }]),
    );
    expect(file.features).toHaveLength(1);
    expect(file.features[0]?.properties).toEqual({ NAME: '0111' });
  });

  it('refuses a polygon whose part starts point outside its points, naming the record', () => {
    // Part 2 starts at point 4000, far past the record's 5 points (and past the file's end).
    const lying = polygon([0, 4000], 5, square);
    expect(problem(() => readBoundaryBytes('beats.zip', shapefile(shp([lying]))))).toMatch(
      /Record 1 of the \.shp is damaged: part 1 points outside its points/,
    );
    // A negative start reads backwards into the header.
    expect(problem(() => readBoundaryBytes('beats.zip', shapefile(shp([polygon([-3], 5, square)]))))).toMatch(
      /Record 1 of the \.shp is damaged/,
    );
  });

  it('refuses a multipoint that claims more points than its record holds', () => {
    const b = Buffer.alloc(40 + 16);
    b.writeInt32LE(8, 0);
    b.writeInt32LE(100_000_000, 36);
    b.writeDoubleLE(-87.6, 40);
    b.writeDoubleLE(41.8, 48);
    expect(problem(() => readBoundaryBytes('schools.zip', shapefile(shp([b]))))).toMatch(
      /Record 1 of the \.shp is damaged: 100000000 points do not fit/,
    );
  });

  it('refuses a point record too short for its coordinates', () => {
    const b = Buffer.alloc(4);
    b.writeInt32LE(1, 0);
    expect(problem(() => readBoundaryBytes('schools.zip', shapefile(shp([b]))))).toMatch(
      /Record 1 of the \.shp is damaged: a point shorter than its coordinates/,
    );
  });

  it('stops at the corner limit while reading, not after building every corner', () => {
    // One multipoint record with a corner more than the whole file may hold (32 MB inflated from a
    // few kB: a .shp entry may inflate far past the zip's own size).
    const n = LIMITS.vertices + 1;
    const b = Buffer.alloc(40 + 16 * n);
    b.writeInt32LE(8, 0);
    b.writeInt32LE(n, 36);
    for (let i = 0; i < n; i++) {
      b.writeDoubleLE(-87.6, 40 + 16 * i);
      b.writeDoubleLE(41.8, 48 + 16 * i);
    }
    expect(problem(() => readBoundaryBytes('schools.zip', shapefile(shp([b]))))).toMatch(
      /more than 2,000,000 corners in all/,
    );
  });

  it('refuses a .dbf whose records are shorter than its fields, and reads no more rows than the .shp has', () => {
    const one = shp([polygon([0], 5, square)]);
    expect(
      problem(() =>
        readBoundaryBytes(
          'beats.zip',
          shapefile(one, [{ name: 'beats.dbf', data: dbf(['0111'], { recordLen: 0 }) }]),
        ),
      ),
    ).toMatch(/\.dbf is damaged: its records are 0 bytes long but its fields need 11/);
    // A header claiming 4 billion rows is read for the one record the .shp has.
    const file = readBoundaryBytes(
      'beats.zip',
      shapefile(one, [{ name: 'beats.dbf', data: dbf(['0111'], { count: 0xffffffff }) }]),
    );
    expect(file.features[0]?.properties).toEqual({ NAME: '0111' });
  });

  it('refuses a .prj too large to be a coordinate system before inflating it', () => {
    const big = `PROJCS["x",${'['.repeat(70 * 1024)}`;
    expect(
      problem(() =>
        readBoundaryBytes(
          'beats.zip',
          shapefile(shp([polygon([0], 5, square)]), [{ name: 'beats.prj', data: big }]),
        ),
      ),
    ).toMatch(/The \.prj is 71,691 bytes; at most 64 kB is read/);
  });

  it.each([
    [
      'a grid file',
      'PROJCS["x",GEOGCS["g",DATUM["D",SPHEROID["s",6378137,298.25]],PRIMEM["G",0],UNIT["d",0.0174]],PROJECTION["Transverse_Mercator"],UNIT["m",1],EXTENSION["PROJ4","+proj=tmerc +nadgrids=@/etc/passwd"]]',
      /The \.prj's system "x" cannot be read: it names a grid shift file \(nadgrids\); Blotter reads no grid files/,
    ],
    [
      'brackets nested past reason',
      `PROJCS["deep",${'DATUM["d",'.repeat(4000)}${']'.repeat(4000)}]`,
      /The \.prj's system "deep" cannot be read: the coordinate system text cannot be read \(its brackets are nested too deep\)/,
    ],
    [
      'NAD27 degrees nested past reason',
      `GEOGCS["g",DATUM["D_North_American_1927",SPHEROID["c",6378206.4,294.98]],${'UNIT["u",'.repeat(4000)}${']'.repeat(4000)}]`,
      /The \.prj's system "NAD27" cannot be read: the coordinate system text cannot be read/,
    ],
  ])('refuses a .prj with %s, naming the system, without reading any file', (_, prj, message) => {
    expect(
      problem(() =>
        readBoundaryBytes(
          'beats.zip',
          shapefile(shp([polygon([0], 5, square)]), [{ name: 'beats.prj', data: prj }]),
        ),
      ),
    ).toMatch(message);
  });

  it('reads a .prj that is not WKT as no projection, so projected numbers are refused as off the Earth', () => {
    const feet: [number, number][] = square.map(([x, y]) => [x * -13_000, y * 45_000]);
    expect(
      problem(() =>
        readBoundaryBytes(
          'beats.zip',
          shapefile(shp([polygon([0], 5, feet)]), [
            { name: 'beats.prj', data: '<html>not a projection</html>' },
          ]),
        ),
      ),
    ).toMatch(/not a latitude\/longitude on Earth/);
  });
});

describe('zips', () => {
  it('refuses an entry that would unpack past one boundary file’s size before inflating it', () => {
    // A 1 GB .shp of zeros (a 1 MB zip) took 2.6 s and 1 GB to inflate before its first record was refused.
    const zip = readZip(zipOf([{ name: 'a.shp', data: Buffer.alloc(1000), lieSize: 500 * 1024 * 1024 }]));
    expect(problem(() => zip.read(zip.entries[0]!))).toBe(
      'The zip cannot be read: "a.shp" would unpack to 500 MB; at most 200 MB are read for one file.',
    );
  });

  it('refuses an entry that is a symbolic link', () => {
    const zip = zipOf([
      { name: 'beats.shp', data: '/etc/passwd' },
      { name: 'beats.dbf', data: 'x' },
    ]);
    // Mark the first central entry as made on Unix with mode lrwxrwxrwx.
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt8(3, central + 5);
    zip.writeUInt32LE((0o120777 << 16) >>> 0, central + 38);
    expect(problem(() => readZip(zip))).toMatch(/"beats\.shp" is a symbolic link/);
  });

  it('refuses a name given twice (case aside), so which .dbf is read is never a guess', () => {
    const zip = zipOf([
      { name: 'beats.shp', data: shp([polygon([0], 5, square)]) },
      { name: 'beats.dbf', data: dbf(['0111']) },
      { name: 'BEATS.DBF', data: dbf(['9999']) },
    ]);
    expect(problem(() => readBoundaryBytes('beats.zip', zip))).toMatch(/it holds "BEATS\.DBF" twice/);
  });
});

const kml = (body: string) =>
  `<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>${body}</Document></kml>`;
const placemark = (name: string) =>
  `<Placemark><name>${name}</name><Point><coordinates>-87.6,41.8</coordinates></Point></Placemark>`;

describe('KML', () => {
  it('refuses character references that are no characters, saying which', () => {
    for (const ref of ['&#x110000;', '&#xZZ;', '&#99999999;', '&#0;', '&#xD800;', '&#;'])
      expect(problem(() => readBoundaryBytes('x.kml', Buffer.from(kml(placemark(`a${ref}b`)))))).toMatch(
        /character reference .* that is not a character XML allows/,
      );
    const ok = readBoundaryBytes('x.kml', Buffer.from(kml(placemark('Caf&#xE9; &#38; Bar'))));
    expect(ok.features[0]?.properties.name).toBe('Café & Bar');
  });

  it('refuses a billion laughs without expanding anything, and elements nested past reason', () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from(
      { length: 9 },
      (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`,
    ).join('')}]><kml><Document>${placemark('&lol9;')}</Document></kml>`;
    expect(problem(() => readBoundaryBytes('x.kml', Buffer.from(laughs)))).toMatch(/entity &lol9;/);
    const deep = `<kml>${'<Folder>'.repeat(100_000)}${'</Folder>'.repeat(100_000)}</kml>`;
    expect(problem(() => readBoundaryBytes('x.kml', Buffer.from(deep)))).toMatch(/nested too deep/);
  });
});

describe('files of tens of millions of corners', () => {
  it('a KML is refused while its coordinates are read, not after building them all', () => {
    const tuples = '-87.6,41.8 '.repeat(LIMITS.vertices + 1);
    const text = kml(
      `<Placemark><MultiGeometry><Point><coordinates>${tuples}</coordinates></Point></MultiGeometry></Placemark>`,
    );
    expect(problem(() => readBoundaryBytes('x.kml', Buffer.from(text)))).toMatch(
      /more than 2,000,000 corners in all; at most that many are read/,
    );
  });

  it('a KMZ whose linked KML files each keep under the limit is refused for their corners together', () => {
    // Each linked file alone is under the limit; 40 of them read in turn took 7 GB and killed the engine.
    const tuples = '-87.6,41.8 '.repeat(LIMITS.vertices / 2 + 1);
    const layer = kml(
      `<Placemark><MultiGeometry><Point><coordinates>${tuples}</coordinates></Point></MultiGeometry></Placemark>`,
    );
    const links = '<NetworkLink><Link><href>layers/a.kml</href></Link></NetworkLink>'.concat(
      '<NetworkLink><Link><href>layers/b.kml</href></Link></NetworkLink>',
    );
    const kmz = zipOf([
      { name: 'doc.kml', data: kml(links) },
      { name: 'layers/a.kml', data: layer },
      { name: 'layers/b.kml', data: layer },
    ]);
    expect(problem(() => readBoundaryBytes('x.kmz', kmz))).toMatch(
      /more than 2,000,000 corners in all; at most that many are read/,
    );
  });

  it('a KML (or KMZ) of millions of empty elements is refused while parsed, not after gigabytes of them', () => {
    // 200 MB of <Placemark/> (a 100 kB KMZ) ran the engine out of memory after two minutes.
    const text = kml('<Placemark/>'.repeat(LIMITS.kmlElements));
    expect(problem(() => readBoundaryBytes('x.kmz', zipOf([{ name: 'doc.kml', data: text }])))).toMatch(
      /more than 1,000,000 elements \(tags\); at most that many are read/,
    );
  });

  it('a GeoJSON of millions of empty objects, or one list of millions of numbers, is refused before it is parsed', () => {
    // 200 MB of {} ran the engine out of memory; 99 million numbers in one Point took 2.7 GB.
    const objects = `{"type":"FeatureCollection","features":[${'{},'.repeat(LIMITS.features * 50)}{}]}`;
    expect(problem(() => readBoundaryBytes('x.geojson', Buffer.from(objects)))).toMatch(
      /^The file holds more than 1,000,000 objects; at most 20,000 features and 2,000,000 corners are read in one layer/,
    );
    const numbers = `{"type":"Point","coordinates":[${'1,'.repeat(LIMITS.vertices * 12)}1]}`;
    expect(problem(() => readBoundaryBytes('x.geojson', Buffer.from(numbers)))).toMatch(
      /^The file holds more than 24,000,000 values;/,
    );
  });

  it('a GeoJSON is refused before it is parsed', () => {
    const positions = '[-87.6,41.8],'.repeat(LIMITS.vertices * 2);
    const text = `{"type":"MultiPoint","coordinates":[${positions}[-87.6,41.8]]}`;
    expect(problem(() => readBoundaryBytes('x.geojson', Buffer.from(text)))).toMatch(
      /more than 4,000,000 coordinate lists; .* so it was not read/,
    );
  });
});

describe('GeoJSON', () => {
  const point = { type: 'Point', coordinates: [-87.6, 41.8] };
  const feature = (properties: unknown, geometry: unknown = point) => ({
    type: 'Feature',
    properties,
    geometry,
  });
  const read = (doc: unknown) => readBoundaryBytes('x.geojson', Buffer.from(JSON.stringify(doc)));

  it('refuses GeometryCollections nested past reason, naming the feature', () => {
    const text = `{"type":"Feature","properties":{},"geometry":${'{"type":"GeometryCollection","geometries":['.repeat(
      50_000,
    )}${JSON.stringify(point)}${']}'.repeat(50_000)}}`;
    expect(problem(() => readBoundaryBytes('x.geojson', Buffer.from(text)))).toMatch(
      /Feature 1 cannot be read: its GeometryCollections are nested more than 8 deep/,
    );
  });

  it('refuses a property nested too deep to keep as text, naming it', () => {
    const text = `{"type":"Feature","properties":{"deep":${'['.repeat(200_000)}${']'.repeat(
      200_000,
    )}},"geometry":${JSON.stringify(point)}}`;
    expect(problem(() => readBoundaryBytes('x.geojson', Buffer.from(text)))).toMatch(
      /Feature 1's property "deep" is nested too deep/,
    );
  });

  it('refuses more distinct attributes than a name picker can offer, before looking each up in each feature', () => {
    const features = Array.from({ length: 1001 }, (_, i) => feature({ [`attr_${i}`]: 'x' }));
    expect(problem(() => read({ type: 'FeatureCollection', features }))).toMatch(
      /1,001 different attributes; at most 1,000 are read/,
    );
  });

  it('refuses coordinates off the Earth or not numbers', () => {
    expect(problem(() => read(feature({}, { type: 'Point', coordinates: [-87.6, 91] })))).toMatch(
      /not a latitude\/longitude on Earth/,
    );
    expect(problem(() => read(feature({}, { type: 'Point', coordinates: ['x', 41] })))).toMatch(
      /not a latitude\/longitude on Earth/,
    );
    // 1e999 parses as Infinity.
    const huge = '{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1e999,41]}}';
    expect(problem(() => readBoundaryBytes('x.geojson', Buffer.from(huge)))).toMatch(
      /not a latitude\/longitude on Earth/,
    );
  });
});

describe('feature names', () => {
  it('are one printable line, and only a feature’s own attribute', () => {
    const f = (properties: Record<string, string>) => ({
      index: 3,
      properties,
      geometry: { kind: 'points' as const, points: [[41.8, -87.6] as [number, number]] },
    });
    expect(featureName(f({ name: 'Beat\u001b[2J 11\n{"x":1}\u202eevil' }), 'name')).toBe(
      'Beat [2J 11 {"x":1} evil',
    );
    // A feature without a "constructor" attribute is "Feature 3", not Object's source text.
    expect(featureName(f({}), 'constructor')).toBe('Feature 3');
    expect(featureName(f({ constructor: 'Lincoln Park' }), 'constructor')).toBe('Lincoln Park');
  });
});
