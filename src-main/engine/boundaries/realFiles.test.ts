/**
 * Boundary files as other tools write them, not as our tests do: a KMZ as Google Earth saves it
 * (doc.kml, nested Folders, CDATA names, ExtendedData) and as GDAL's LIBKML driver writes it (a
 * doc.kml that only links to layers/NAME.kml), and Shapefiles whose .dbf is Windows-1252 — without
 * a .cpg, or with the labels ArcGIS writes (`1252`, `ANSI 1252`, `ISO 88591`). The files are made
 * by ogr2ogr (Debian gdal-bin) where it can make them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBoundaryBytes } from './readBoundaries';
import { zipOf } from './testZip';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'blotter-real-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const square = (lat: number, lon: number, d: number): number[][] => [
  [lon, lat],
  [lon + d, lat],
  [lon + d, lat + d],
  [lon, lat + d],
  [lon, lat],
];
const beats = (name: string) => ({
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { BEAT: '114', NAME: name },
      geometry: { type: 'Polygon', coordinates: [square(32.77, -96.8, 0.02)] },
    },
    {
      type: 'Feature',
      properties: { BEAT: '115', NAME: 'Oak Cliff' },
      geometry: {
        type: 'MultiPolygon',
        coordinates: [[square(32.74, -96.83, 0.02)], [square(32.7, -96.86, 0.01)]],
      },
    },
  ],
});

/** ogr2ogr's output for `args` from the GeoJSON, as [file name, bytes] of what it wrote. */
function ogr(name: string, geojson: object, args: string[]): { name: string; data: Buffer }[] {
  const src = path.join(dir, `${name}.geojson`);
  writeFileSync(src, JSON.stringify(geojson));
  const out = path.join(dir, name);
  execFileSync('ogr2ogr', [...args, out, src, '-nln', 'beats'], { stdio: 'pipe' });
  return readdirSync(out).map((f) => ({ name: f, data: readFileSync(path.join(out, f)) }));
}

describe('KMZ', () => {
  it('reads a Google Earth KMZ: doc.kml with nested folders, CDATA names, a hole and ExtendedData', () => {
    const kml = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
<Document><name>Beats.kmz</name>
  <Folder><name>Districts</name><Folder><name>Central</name>
    <Placemark><name><![CDATA[Beat 114 – Peña]]></name><styleUrl>#m</styleUrl>
      <ExtendedData><Data name="BEAT"><value>114</value></Data></ExtendedData>
      <Polygon><tessellate>1</tessellate>
        <outerBoundaryIs><LinearRing><coordinates>
          -96.8,32.77,0 -96.78,32.77,0 -96.78,32.79,0 -96.8,32.79,0 -96.8,32.77,0
        </coordinates></LinearRing></outerBoundaryIs>
        <innerBoundaryIs><LinearRing><coordinates>-96.795,32.775,0 -96.795,32.78,0 -96.79,32.78,0 -96.79,32.775,0 -96.795,32.775,0</coordinates></LinearRing></innerBoundaryIs>
      </Polygon></Placemark>
  </Folder></Folder>
</Document></kml>`;
    const kmz = zipOf([
      { name: 'doc.kml', data: Buffer.from(kml) },
      { name: 'files/icon.png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47]) },
    ]);
    const f = readBoundaryBytes('Beats.kmz', kmz);
    expect(f.format).toBe('kml');
    expect(f.features).toHaveLength(1);
    expect(f.features[0]?.properties).toMatchObject({ name: 'Beat 114 – Peña', BEAT: '114' });
    const g = f.features[0]?.geometry;
    expect(g?.kind === 'polygons' && g.polygons[0]?.length).toBe(2);
  });

  it('reads the KMZ GDAL’s LIBKML driver writes (doc.kml linking to layers/beats.kml inside it)', () => {
    const src = path.join(dir, 'libkml.geojson');
    writeFileSync(src, JSON.stringify(beats('Peña Heights')));
    const kmzPath = path.join(dir, 'libkml.kmz');
    execFileSync('ogr2ogr', ['-f', 'LIBKML', kmzPath, src, '-nln', 'beats'], { stdio: 'pipe' });
    const f = readBoundaryBytes('libkml.kmz', readFileSync(kmzPath));
    expect(f.features.map((x) => [x.index, x.properties.name, x.properties.BEAT])).toEqual([
      [1, 'Peña Heights', '114'],
      [2, 'Oak Cliff', '115'],
    ]);
  });

  it('never follows a KMZ’s link out of it', () => {
    const doc = `<kml xmlns="http://www.opengis.net/kml/2.2"><Document><NetworkLink><Link><href>http://example.test/beats.kml</href></Link></NetworkLink></Document></kml>`;
    expect(() => readBoundaryBytes('x.kmz', zipOf([{ name: 'doc.kml', data: Buffer.from(doc) }]))).toThrow(
      /no features/,
    );
  });
});

describe('a Shapefile’s .dbf in Windows-1252', () => {
  const NAME = 'José – Peña’s “Heights”';
  const zipped = (cpg: string | null) => {
    const files = ogr(`cp${cpg ?? 'none'}`.replace(/\W/g, ''), beats(NAME), [
      '-f',
      'ESRI Shapefile',
      '-t_srs',
      'EPSG:2276',
      '-lco',
      'ENCODING=CP1252',
    ]).filter((x) => !x.name.endsWith('.cpg'));
    if (cpg !== null) files.push({ name: 'beats.cpg', data: Buffer.from(cpg) });
    return zipOf(files);
  };

  it.each([null, '1252', 'ANSI 1252', 'ISO 88591', 'CP1252'])(
    'reads its dashes and curly quotes (.cpg %s)',
    (cpg) => {
      const f = readBoundaryBytes('beats.zip', zipped(cpg));
      expect(f.features.map((x) => x.properties.NAME)).toEqual([NAME, 'Oak Cliff']);
    },
  );
});

describe('GeoJSON with a legacy crs member, as ogr2ogr writes it', () => {
  it.each([3857, 2276, 26914])('reads EPSG:%i back to the corners written, within 0.1 m', (epsg) => {
    const src = path.join(dir, `crs${epsg}.geojson`);
    const out = path.join(dir, `crs${epsg}.out.geojson`);
    writeFileSync(src, JSON.stringify(beats('Peña')));
    execFileSync('ogr2ogr', ['-f', 'GeoJSON', '-t_srs', `EPSG:${epsg}`, '-lco', 'RFC7946=NO', out, src], {
      stdio: 'pipe',
    });
    const bytes = readFileSync(out);
    expect(bytes.toString()).toMatch(new RegExp(`EPSG::${epsg}`));
    const f = readBoundaryBytes('beats.geojson', bytes);
    expect(f.crs).toMatch(/reprojected to EPSG:4326/);
    const g = f.features[0]?.geometry;
    if (g?.kind !== 'polygons') throw new Error('polygons expected');
    const written = square(32.77, -96.8, 0.02);
    (g.polygons[0]?.[0] ?? []).forEach(([lat, lon], k) => {
      expect(Math.abs(lat - (written[k]?.[1] as number))).toBeLessThan(1e-6);
      expect(Math.abs(lon - (written[k]?.[0] as number))).toBeLessThan(1e-6);
    });
  });
});

describe('corners repeated in a ring, as digitising leaves them', () => {
  const withRepeat = {
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        properties: { NAME: 'Beat 114' },
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [-96.8, 32.77],
              [-96.78, 32.77],
              [-96.78, 32.77],
              [-96.78, 32.79],
              [-96.8, 32.79],
              [-96.8, 32.79],
              [-96.8, 32.77],
            ],
          ],
        },
      },
    ],
  };

  it('read as one corner (not a ring crossing itself) in GeoJSON, a Shapefile ogr2ogr wrote and KML', () => {
    const shp = zipOf(ogr('repeat', withRepeat, ['-f', 'ESRI Shapefile', '-t_srs', 'EPSG:2276']));
    const kml = `<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>Beat 114</name><Polygon><outerBoundaryIs><LinearRing><coordinates>-96.8,32.77 -96.78,32.77 -96.78,32.77 -96.78,32.79 -96.8,32.79 -96.8,32.77</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></kml>`;
    for (const [name, bytes] of [
      ['beats.geojson', Buffer.from(JSON.stringify(withRepeat))],
      ['beats.zip', shp],
      ['beats.kml', Buffer.from(kml)],
    ] as const) {
      const f = readBoundaryBytes(name, bytes);
      const g = f.features[0]?.geometry;
      if (g?.kind !== 'polygons') throw new Error('polygons expected');
      const ring = (g.polygons[0]?.[0] ?? []).map((c) => c.join(','));
      expect(new Set(ring).size).toBe(4);
      expect(ring.filter((c, k) => k > 0 && c === ring[k - 1])).toEqual([]);
    }
  });
});

describe('a Shapefile on NAD27 (an older county’s .prj)', () => {
  it.each([32038, 4267])(
    'EPSG:%i is shifted to WGS 84 (within 10 m of the corners written; 31 m off unshifted)',
    (epsg) => {
      const files = ogr(`nad27_${epsg}`, beats('Old'), ['-f', 'ESRI Shapefile', '-t_srs', `EPSG:${epsg}`]);
      const f = readBoundaryBytes('old.zip', zipOf(files));
      expect(f.crs).toMatch(/NAD27/);
      const g = f.features[0]?.geometry;
      if (g?.kind !== 'polygons') throw new Error('polygons expected');
      const [lat, lon] = g.polygons[0]?.[0]?.[0] as [number, number];
      const metres = Math.hypot(
        (lat - 32.77) * 111_320,
        (lon + 96.8) * 111_320 * Math.cos((32.77 * Math.PI) / 180),
      );
      expect(metres).toBeLessThan(10);
    },
  );
});
