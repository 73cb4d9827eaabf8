/**
 * Filtering by a reference layer's feature and counting near a layer's features, against brute
 * force: every incident of the file tested with an independent point-in-polygon and distances in
 * UTM metres from proj4 (not src-shared/geo).
 */
import proj4 from 'proj4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Filters } from '../../../src-shared/filters';
import { filterWords } from '../../../src-shared/filterWords';
import { incidentCalls } from '../query/calls';
import { featureLabel } from './featureRegion';
import { closeFixture, openFixture, type Fixture } from '../query/testFixtures';
import type { BoundaryFile } from './boundaryFile';
import { LayerService } from './service';

type P = [number, number]; // [lat, lon]

function evenOdd(lat: number, lon: number, ring: P[]): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [yi, xi] = ring[i]!;
    const [yj, xj] = ring[j]!;
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

describe('filter by a layer feature equals brute force', () => {
  let f: Fixture;
  let layers: LayerService;
  let rows: { cdid: number; lat: number; lon: number; day: string; type: string }[];
  let beats: { id: number; rings: P[][] }[];
  let schools: { id: number; at: P }[];
  let toUtm: (lat: number, lon: number) => [number, number];

  beforeAll(() => {
    f = openFixture({ count: 4000 });
    rows = f.db
      .prepare('SELECT cdid, lat, lon, local_day AS day, type FROM incidents WHERE removed_at IS NULL')
      .all() as typeof rows;
    const lats = rows.map((r) => r.lat).sort((a, b) => a - b);
    const lons = rows.map((r) => r.lon).sort((a, b) => a - b);
    const q = (xs: number[], p: number) => xs[Math.floor(p * (xs.length - 1))]!;
    const [la0, la1, lo0, lo1] = [q(lats, 0.2), q(lats, 0.8), q(lons, 0.2), q(lons, 0.8)];
    const dLat = (la1 - la0) / 3;
    const dLon = (lo1 - lo0) / 3;
    const features: BoundaryFile['features'] = [];
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) {
        const a = la0 + i * dLat;
        const b = lo0 + j * dLon;
        const outer: P[] = [
          [a, b],
          [a, b + dLon],
          [a + dLat * 0.9, b + dLon * 0.95],
          [a + dLat, b + dLon * 0.4],
          [a + dLat, b],
        ];
        const rings: P[][] = [outer];
        if (i === 1 && j === 1)
          rings.push([
            [a + dLat * 0.3, b + dLon * 0.3],
            [a + dLat * 0.3, b + dLon * 0.7],
            [a + dLat * 0.7, b + dLon * 0.7],
            [a + dLat * 0.7, b + dLon * 0.3],
          ]);
        features.push({
          index: features.length + 1,
          properties: { BEAT: `B${i}${j}` },
          geometry: { kind: 'polygons', polygons: [rings] },
        });
      }
    layers = new LayerService({ db: f.db, dataDir: f.dir.path, query: f.service });
    const file = (fs: BoundaryFile['features']): BoundaryFile => ({
      format: 'geojson',
      features: fs,
      fields: ['BEAT'],
      crs: 'EPSG:4326',
      skipped: [],
    });
    const beatLayer = layers.store.create(
      file(features),
      { name: 'Beats', nameField: 'BEAT', sourceName: 'beats.geojson' },
      0,
    );
    beats = layers.store.features(beatLayer.id).map((x, k) => ({
      id: x.id,
      rings: (features[k]!.geometry as unknown as { polygons: P[][][] }).polygons[0]!,
    }));
    // Schools at incidents' places (so some are near), the second 55 m from the first.
    const at: P[] = [rows[10]!, rows[500]!, rows[1500]!].map((r) => [r.lat, r.lon]);
    at.splice(1, 0, [at[0]![0] + 0.0005, at[0]![1]]);
    const schoolFeatures: BoundaryFile['features'] = at.map((p, k) => ({
      index: k + 1,
      properties: { BEAT: `S${k}` },
      geometry: { kind: 'points', points: [p] },
    }));
    const schoolLayer = layers.store.create(
      file(schoolFeatures),
      { name: 'Schools', nameField: 'BEAT', sourceName: 's.geojson' },
      0,
    );
    schools = layers.store
      .features(schoolLayer.id)
      .map((x) => ({ id: x.id, at: (x.geometry as unknown as { points: P[] }).points[0]! }));
    const centre = [(la0 + la1) / 2, (lo0 + lo1) / 2];
    const zone = Math.floor((centre[1]! + 180) / 6) + 1;
    const forward = proj4('EPSG:4326', `+proj=utm +zone=${zone} +datum=WGS84 +units=m +no_defs`);
    toUtm = (lat, lon) => forward.forward([lon, lat]) as [number, number];
  });
  afterAll(async () => closeFixture(f));

  const insideBeat = (lat: number, lon: number, rings: P[][]) =>
    evenOdd(lat, lon, rings[0]!) && !rings.slice(1).some((h) => evenOdd(lat, lon, h));

  function withinOfRings(lat: number, lon: number, rings: P[][], metres: number, zoneOf: P): boolean {
    if (insideBeat(lat, lon, rings)) return true;
    void zoneOf;
    const [px, py] = toUtm(lat, lon);
    for (const ring of rings)
      for (let i = 0; i < ring.length; i++) {
        const [ax, ay] = toUtm(...ring[i]!);
        const [bx, by] = toUtm(...ring[(i + 1) % ring.length]!);
        const t = Math.max(
          0,
          Math.min(1, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)),
        );
        if (Math.hypot(ax + t * (bx - ax) - px, ay + t * (by - ay) - py) <= metres) return true;
      }
    return false;
  }

  const count = async (filters: Filters) =>
    (await incidentCalls.countIncidents(f.service, { filters })).total;

  it('inside each beat (one with a hole), with other filters too', async () => {
    let inAny = 0;
    for (const beat of beats) {
      const expected = rows.filter((r) => insideBeat(r.lat, r.lon, beat.rings)).length;
      inAny += expected;
      expect(await count({ preset: 'all', feature: { layerId: 1, featureId: beat.id } })).toBe(expected);
    }
    expect(inAny).toBeGreaterThan(200);
    // The map's points and the table's pages come from the same match set.
    const one = beats[1]!;
    const filters: Filters = { preset: 'all', feature: { layerId: 1, featureId: one.id } };
    const expectedOne = rows.filter((r) => insideBeat(r.lat, r.lon, one.rings)).length;
    expect((await incidentCalls.getMapPoints(f.service, { filters })).count).toBe(expectedOne);
    const page = await incidentCalls.listIncidents(f.service, {
      filters,
      sort: { by: 'date', dir: 'desc' },
      offset: 0,
      limit: 500,
    } as never);
    expect(page.total).toBe(expectedOne);
    expect((await incidentCalls.getMapSketch(f.service, { filters, zoom: 12 })).total).toBe(expectedOne);
    const b = beats[4]!;
    const type = rows[0]!.type;
    const expected = rows.filter(
      (r) => r.type === type && r.day >= '2025-01-01' && insideBeat(r.lat, r.lon, b.rings),
    ).length;
    expect(await count({ from: '2025-01-01', types: [type], feature: { layerId: 1, featureId: b.id } })).toBe(
      expected,
    );
  });

  it('within a distance of a beat and of a school (1,000 ft), and the per-feature counts', async () => {
    const metres = 1000 * 0.3048;
    for (const beat of beats.slice(3, 6)) {
      const expected = rows.filter((r) =>
        withinOfRings(r.lat, r.lon, beat.rings, 400, beat.rings[0]![0]!),
      ).length;
      expect(await count({ preset: 'all', feature: { layerId: 1, featureId: beat.id, bufferM: 400 } })).toBe(
        expected,
      );
    }
    const near = (r: { lat: number; lon: number }, at: P) => {
      const [x, y] = toUtm(r.lat, r.lon);
      const [sx, sy] = toUtm(at[0], at[1]);
      return Math.hypot(x - sx, y - sy) <= metres;
    };
    for (const s of schools) {
      const expected = rows.filter((r) => near(r, s.at)).length;
      expect(
        await count({ preset: 'all', feature: { layerId: 2, featureId: s.id, bufferM: metres, unit: 'ft' } }),
      ).toBe(expected);
    }
    const result = await layers.countNear({ preset: 'all' }, 2, metres);
    expect(result.features.map((x) => x.count)).toEqual(
      schools.map((s) => rows.filter((r) => near(r, s.at)).length),
    );
    const distinct = rows.filter((r) => schools.some((s) => near(r, s.at))).length;
    expect(result.total).toBe(distinct);
    expect(result.total).toBeGreaterThan(0);
    // Two schools close together share incidents: the total counts them once.
    expect(result.features.reduce((a, x) => a + x.count, 0)).toBeGreaterThan(distinct);
    expect(result.filtered).toBe(rows.length);
  });

  it('says the filter in words, with the feature and layer names (manifests, the report)', () => {
    const feature = { layerId: 2, featureId: schools[0]!.id, bufferM: 304.8, unit: 'ft' as const };
    const words = filterWords({ feature }, { featureName: (x) => featureLabel(f.db, x) });
    expect(words).toContain('Layer: Within 1,000 ft of S0 (Schools)');
    expect(
      filterWords(
        { feature: { layerId: 1, featureId: beats[0]!.id } },
        { featureName: (x) => featureLabel(f.db, x) },
      ),
    ).toContain('Layer: Inside B00 (Beats)');
  });

  it('a point without a distance, or a feature that is gone, is a clear error', async () => {
    await expect(count({ feature: { layerId: 2, featureId: schools[0]!.id } })).rejects.toThrow(
      /is a point: give a distance/,
    );
    await expect(count({ feature: { layerId: 2, featureId: 99_999 } })).rejects.toThrow(/no longer exists/);
  });
});
