/**
 * A filter's feature region is kept between queries and a big feature's is made on the boundary
 * helper thread: the same region answers again (a 250k-corner feature took 130–700 ms to parse and
 * buffer at every query), never a stale one (a deleted layer's feature is refused, a row replaced
 * under the same id is read again), and a call asked while a big feature's first region is made is
 * answered first, the filter matching what the region made on the engine thread matches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bufferedRegion, type LatLon } from '../../../src-shared/geo';
import { wavyRing } from '../../../src-shared/geo/rings.testing';
import { closeFixture, openFixture, type Fixture } from '../query/testFixtures';
import type { BoundaryFile } from './boundaryFile';
import { BIG_FEATURE_BYTES, featureRegion } from './featureRegion';
import { LayerService } from './service';

const square = (lat: number, lon: number, d: number): LatLon[] => [
  [lat, lon],
  [lat + d, lon],
  [lat + d, lon + d],
  [lat, lon + d],
];

const fileOf = (rings: LatLon[][]): BoundaryFile => ({
  format: 'geojson',
  crs: 'EPSG:4326',
  fields: ['name'],
  skipped: [],
  features: rings.map((ring, k) => ({
    index: k + 1,
    properties: { name: `beat ${k + 1}` },
    geometry: { kind: 'polygons', polygons: [[ring]] },
  })),
});

describe("a filter's feature region", () => {
  let f: Fixture;
  let layers: LayerService;
  let rows: { lat: number; lon: number }[];
  let centre: LatLon;
  beforeAll(() => {
    f = openFixture({ count: 4000 });
    layers = new LayerService({ db: f.db, dataDir: f.dir.path, query: f.service });
    rows = f.db.prepare('SELECT lat, lon FROM incidents WHERE removed_at IS NULL').all() as typeof rows;
    centre = [rows[0]!.lat, rows[0]!.lon]; // an incident's place: others lie near it
  });
  afterAll(async () => {
    layers.close();
    await closeFixture(f);
  });

  it('is kept between queries, and never stale: a replaced row is read again, a deleted layer refused', () => {
    const [lat, lon] = centre;
    const layer = layers.store.create(
      fileOf([square(lat, lon, 0.01), square(lat - 0.05, lon - 0.05, 0.01)]),
      { name: 'Beats', nameField: 'name', sourceName: 'b.geojson' },
      0,
    );
    const [one] = layers.store.featureNames(layer.id);
    const ref = { layerId: layer.id, featureId: one!.id };
    const region = featureRegion(f.db, ref);
    expect(featureRegion(f.db, ref)).toBe(region);
    expect(featureRegion(f.db, { ...ref, bufferM: 100 })).not.toBe(region);
    layers.store.rename(layer.id, 'Police beats');
    expect(featureRegion(f.db, ref)).toBe(region);

    // The same id holding other geometry (a folder restored from a backup): made again from it.
    const moved = square(lat + 0.02, lon + 0.02, 0.01);
    f.db
      .prepare(
        'UPDATE reference_features SET geometry = ?, min_lat = ?, min_lon = ?, max_lat = ?, max_lon = ? WHERE id = ?',
      )
      .run(
        JSON.stringify({ kind: 'polygons', polygons: [[moved]] }),
        lat + 0.02,
        lon + 0.02,
        lat + 0.03,
        lon + 0.03,
        ref.featureId,
      );
    const again = featureRegion(f.db, ref);
    expect(again.contains(lat + 0.025, lon + 0.025)).toBe(true);
    expect(again.contains(lat + 0.005, lon + 0.005)).toBe(false);

    layers.store.remove(layer.id);
    expect(() => featureRegion(f.db, ref)).toThrow(/no longer exists/);
    expect(() => featureRegion(f.db, { ...ref, bufferM: 100 })).toThrow(/no longer exists/);
  });

  it("makes a big feature's region on the helper thread, a call asked meanwhile answered first", async () => {
    const [lat, lon] = centre;
    const ring = wavyRing(60_000, lat, lon, 0.05);
    const layer = layers.store.create(
      fileOf([ring]),
      { name: 'Big', nameField: 'name', sourceName: 'big.geojson' },
      0,
    );
    expect(layers.store.geometryBytes(layer.id)).toBeGreaterThan(BIG_FEATURE_BYTES);
    const [one] = layers.store.featureNames(layer.id);
    const ref = { layerId: layer.id, featureId: one!.id, bufferM: 150 };
    await f.service.resolve({ preset: 'all' }); // the snapshot loaded beforehand

    const order: string[] = [];
    const filtered = f.service.resolve({ preset: 'all', feature: ref }).finally(() => order.push('job'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await f.service.resolve({ preset: 'all', types: ['THEFT'] });
    order.push('count');
    const { set } = await filtered;
    expect(order).toEqual(['count', 'job']);

    // The same incidents as the region made here from the same geometry (and some of them).
    const here = bufferedRegion({ kind: 'polygons', polygons: [[ring]] }, 150);
    const inside = rows.filter((r) => here.contains(r.lat, r.lon)).length;
    expect(inside).toBeGreaterThan(0);
    expect(set.rows.length).toBe(inside);
    // Kept: asked again, the region is the one the thread made.
    expect(featureRegion(f.db, ref)).toBe(featureRegion(f.db, ref));
  });
});
