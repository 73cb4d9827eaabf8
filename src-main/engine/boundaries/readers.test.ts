import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LatLon } from '../../../src-shared/geo';
import { BoundaryProblem, LIMITS } from './boundaryFile';
import { readBoundaryBytes } from './readBoundaries';
import { zipOf } from './testZip';
import { readZip } from './zipRead';

const square = (lat: number, lon: number, d: number): number[][] => [
  [lon, lat],
  [lon + d, lat],
  [lon + d, lat + d],
  [lon, lat + d],
  [lon, lat],
];

// Two beats in Chicago: beat 1 with a hole, beat 2 in two parts; and a line that is left out.
const beats = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { BEAT_NUM: '0111', district: 1 },
      geometry: {
        type: 'Polygon',
        coordinates: [square(41.88, -87.64, 0.01), square(41.884, -87.636, 0.002).reverse()],
      },
    },
    {
      type: 'Feature',
      properties: { BEAT_NUM: '0112', district: 1 },
      geometry: {
        type: 'MultiPolygon',
        coordinates: [[square(41.89, -87.64, 0.01)], [square(41.9, -87.62, 0.005)]],
      },
    },
    {
      type: 'Feature',
      properties: { BEAT_NUM: 'x' },
      geometry: {
        type: 'LineString',
        coordinates: [
          [-87, 41],
          [-87.1, 41.1],
        ],
      },
    },
  ],
};

const problem = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(BoundaryProblem);
    return (error as Error).message;
  }
  throw new Error('expected a BoundaryProblem');
};

describe('GeoJSON', () => {
  it('reads polygons with holes and parts, their attributes, and leaves lines out', () => {
    const f = readBoundaryBytes('beats.geojson', Buffer.from(JSON.stringify(beats)));
    expect(f.format).toBe('geojson');
    expect(f.fields).toEqual(['BEAT_NUM', 'district']);
    expect(f.features.map((x) => x.properties.BEAT_NUM)).toEqual(['0111', '0112']);
    const g = f.features[0]!.geometry;
    expect(g.kind).toBe('polygons');
    if (g.kind !== 'polygons') return;
    expect(g.polygons[0]).toHaveLength(2); // outer + hole, closing corner dropped
    expect(g.polygons[0]![0]).toHaveLength(4);
    expect(g.polygons[0]![0]![0]).toEqual([41.88, -87.64]); // [lat, lon]
    const two = f.features[1]!.geometry;
    expect(two.kind === 'polygons' && two.polygons.length).toBe(2);
    expect(f.skipped).toEqual([{ index: 3, reason: 'it is a line, not an area or a point' }]);
  });

  it('reads positions with an altitude or given as text as [lat, lon], and a shared closing corner once', () => {
    const ring = [
      [-87.6, 41.8, 180],
      ['-87.5', '41.8'],
      [-87.5, 41.9, 0, 7],
      [-87.6, 41.8, 180],
    ];
    const doc = {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } },
        { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [-87.7, 41.7, 3] } },
      ],
    };
    const f = readBoundaryBytes('z.geojson', Buffer.from(JSON.stringify(doc)));
    const g = f.features[0]!.geometry;
    expect(g.kind === 'polygons' && g.polygons[0]![0]).toEqual([
      [41.8, -87.6],
      [41.8, -87.5],
      [41.9, -87.5],
    ]);
    const p = f.features[1]!.geometry;
    expect(p.kind === 'points' && p.points).toEqual([[41.7, -87.7]]);
  });

  it('refuses invalid geometry, naming the feature and the reason', () => {
    const bad = structuredClone(beats);
    bad.features[1]!.geometry = {
      type: 'Polygon',
      coordinates: [
        [
          [-87.64, 41.89],
          [-87.63, 41.9],
          [-87.63, 41.89],
          [-87.64, 41.9],
          [-87.64, 41.89],
        ],
      ],
    } as never;
    expect(problem(() => readBoundaryBytes('b.geojson', Buffer.from(JSON.stringify(bad))))).toMatch(
      /feature 2 "0112": the outer ring crosses itself/,
    );
  });

  it('refuses too many features, or corners in one feature, with the counts', () => {
    const many = {
      type: 'FeatureCollection',
      features: Array.from({ length: LIMITS.features + 1 }, () => ({
        type: 'Feature',
        properties: {},
        geometry: { type: 'Point', coordinates: [-87.6, 41.9] },
      })),
    };
    expect(problem(() => readBoundaryBytes('m.geojson', Buffer.from(JSON.stringify(many))))).toMatch(
      /20,001 features; Blotter reads at most 20,000/,
    );
    const corners = LIMITS.featureVertices + 1;
    const big = {
      type: 'Feature',
      properties: {},
      geometry: {
        type: 'Polygon',
        coordinates: [
          Array.from({ length: corners + 1 }, (_, k) => {
            const a = ((k % corners) / corners) * 2 * Math.PI;
            return [-87.6 + 0.01 * Math.cos(a), 41.9 + 0.01 * Math.sin(a)];
          }),
        ],
      },
    };
    expect(problem(() => readBoundaryBytes('big.geojson', Buffer.from(JSON.stringify(big))))).toMatch(
      /Feature 1 has 250,001 corners; at most 250,000 are read for one feature/,
    );
  });
});

describe('zipped Shapefile', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'blotter-shp-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The shapefile GDAL writes from a GeoJSON, reprojected to `epsg`, zipped (no folders). */
  function shapefileZip(name: string, geojson: object, epsg: number): Buffer {
    const src = path.join(dir, `${name}.geojson`);
    writeFileSync(src, JSON.stringify(geojson));
    const out = path.join(dir, name);
    execFileSync('ogr2ogr', [
      '-f',
      'ESRI Shapefile',
      '-t_srs',
      `EPSG:${epsg}`,
      '-lco',
      'ENCODING=UTF-8',
      out,
      src,
    ]);
    return zipOf(
      readdirSync(out).map((f) => ({ name: `${name}/${f}`, data: readFileSync(path.join(out, f)) })),
    );
  }

  it('reads polygons in State Plane US feet (.prj) back to their latitude/longitude within 0.1 m', () => {
    const zip = shapefileZip('beats', { ...beats, features: beats.features.slice(0, 2) }, 3435);
    const f = readBoundaryBytes('beats.zip', zip);
    expect(f.format).toBe('shapefile');
    expect(f.crs).toMatch(/Illinois.*East.*reprojected to EPSG:4326/i);
    expect(f.fields).toEqual(['BEAT_NUM', 'district']);
    expect(f.features.map((x) => [x.properties.BEAT_NUM, x.properties.district])).toEqual([
      ['0111', 1],
      ['0112', 1],
    ]);
    const g = f.features[0]!.geometry;
    if (g.kind !== 'polygons') throw new Error('polygons expected');
    expect(g.polygons).toHaveLength(1);
    expect(g.polygons[0]).toHaveLength(2); // the hole stays a hole of its outer ring
    const corners = new Set(square(41.88, -87.64, 0.01).map(([lon, lat]) => `${lat},${lon}`));
    for (const [lat, lon] of g.polygons[0]![0] as LatLon[]) {
      const nearest = [...corners].map((c) => c.split(',').map(Number) as [number, number]);
      const best = Math.min(...nearest.map(([a, b]) => Math.hypot(a - lat, b - lon)));
      expect(best).toBeLessThan(1e-6); // ~0.1 m
    }
    const parts = f.features[1]!.geometry;
    expect(parts.kind === 'polygons' && parts.polygons.length).toBe(2);
  });

  it('reads points (schools) with their names', () => {
    const schools = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { SCHOOL: 'Lincoln Elementary' },
          geometry: { type: 'Point', coordinates: [-87.645, 41.885] },
        },
        {
          type: 'Feature',
          properties: { SCHOOL: 'Jenner Academy' },
          geometry: { type: 'Point', coordinates: [-87.636, 41.903] },
        },
      ],
    };
    const f = readBoundaryBytes('schools.zip', shapefileZip('schools', schools, 3435));
    expect(f.features.map((x) => x.properties.SCHOOL)).toEqual(['Lincoln Elementary', 'Jenner Academy']);
    const p = f.features[0]!.geometry;
    expect(p.kind).toBe('points');
    if (p.kind !== 'points') return;
    expect(p.points[0]![0]).toBeCloseTo(41.885, 6);
    expect(p.points[0]![1]).toBeCloseTo(-87.645, 6);
  });

  it('refuses a zip with an entry leading out of its folder, before reading anything', () => {
    for (const name of ['../evil.shp', 'a/../../evil.shp', '/etc/evil.shp', 'C:\\evil.shp', '..\\evil.shp']) {
      const zip = zipOf([
        { name: 'ok.dbf', data: 'x' },
        { name, data: 'x' },
      ]);
      expect(problem(() => readBoundaryBytes('x.zip', zip))).toContain('points outside the zip');
    }
  });

  it('refuses too many entries, too many bytes declared, and an entry that inflates past its size', () => {
    const many = zipOf(
      Array.from({ length: LIMITS.zipEntries + 1 }, (_, i) => ({ name: `f${i}.txt`, data: '' })),
    );
    expect(problem(() => readZip(many))).toMatch(/1001 entries; at most 1000/);
    const huge = zipOf([{ name: 'a.shp', data: 'x', lieSize: 0xfffffff0 }]);
    expect(problem(() => readZip(huge))).toMatch(/unpack to more than/);
    const bomb = zipOf([{ name: 'b.shp', data: Buffer.alloc(5_000_000), lieSize: 100 }]);
    const zip = readZip(bomb);
    expect(problem(() => zip.read(zip.entries[0]!))).toMatch(/does not inflate to its declared/);
  });
});

describe('KML', () => {
  let server: Server;
  let url = '';
  let requests = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests++;
      res.end('<x>fetched</x>');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/entity`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  const kml = (doctype: string, name: string) => `<?xml version="1.0" encoding="UTF-8"?>
${doctype}
<kml xmlns="http://www.opengis.net/kml/2.2"><Document>
  <Placemark><name>${name}</name>
    <ExtendedData><Data name="district"><value>1</value></Data></ExtendedData>
    <Polygon><outerBoundaryIs><LinearRing><coordinates>
      -87.64,41.88,0 -87.63,41.88,0 -87.63,41.89,0 -87.64,41.89,0 -87.64,41.88,0
    </coordinates></LinearRing></outerBoundaryIs>
    <innerBoundaryIs><LinearRing><coordinates>-87.636,41.884 -87.634,41.884 -87.634,41.886 -87.636,41.884</coordinates></LinearRing></innerBoundaryIs>
    </Polygon></Placemark>
  <Placemark><name>Lincoln &amp; Elm School</name><Point><coordinates>-87.645,41.885</coordinates></Point></Placemark>
</Document></kml>`;

  it('reads placemarks: polygons with holes, points, names and extended data', () => {
    const f = readBoundaryBytes('beats.kml', Buffer.from(kml('', 'Beat <![CDATA[0111]]>')));
    expect(f.format).toBe('kml');
    expect(f.features.map((x) => x.properties.name)).toEqual(['Beat 0111', 'Lincoln & Elm School']);
    expect(f.features[0]!.properties.district).toBe('1');
    const g = f.features[0]!.geometry;
    expect(g.kind === 'polygons' && g.polygons[0]!.length).toBe(2);
    expect(f.features[1]!.geometry).toEqual({ kind: 'points', points: [[41.885, -87.645]] });
  });

  it('never fetches or expands an external entity a DOCTYPE declares', () => {
    const doctype = `<!DOCTYPE kml [ <!ENTITY xxe SYSTEM "${url}"> <!ENTITY local SYSTEM "file:///etc/passwd"> ]>`;
    expect(problem(() => readBoundaryBytes('x.kml', Buffer.from(kml(doctype, '&xxe;'))))).toMatch(
      /entity &xxe; which Blotter does not expand/,
    );
    expect(problem(() => readBoundaryBytes('x.kml', Buffer.from(kml(doctype, '&local;'))))).toMatch(
      /&local;/,
    );
    // Declared but unused: the DOCTYPE is skipped unread and the file reads as it is.
    const f = readBoundaryBytes('x.kml', Buffer.from(kml(doctype, 'Beat 1')));
    expect(f.features[0]!.properties.name).toBe('Beat 1');
    expect(JSON.stringify(f)).not.toContain('root:');
    expect(requests).toBe(0);
  });

  it('says what is not well-formed', () => {
    expect(problem(() => readBoundaryBytes('x.kml', Buffer.from('<kml><Placemark></kml>')))).toMatch(
      /not well-formed XML: <\/kml> does not close <Placemark>/,
    );
  });
});
