/**
 * A big kept layer's geometry (its stored JSON over BIG_LAYER_BYTES) is parsed on the boundary
 * helper thread, on its own read-only connection: a call asked while the map's getLayerFeatures
 * or countNearLayer reads one is answered before that read ends (it waited behind the parse on
 * the engine thread), the answers are the layer's, and closing the engine ends a read under way.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LatLon } from '../../../src-shared/geo';
import { featureViewsOf, type LayerFeaturesResult } from '../../../src-shared/layerCalls';
import { wavyRing } from '../../../src-shared/geo/rings.testing';
import type { Engine } from '../engine';
import { closeFixture, openFixture, type Fixture } from '../query/testFixtures';
import { openEngine, type EngineFixture } from '../testing/engineFixture';
import type { BoundaryFile } from './boundaryFile';
import { countNearPoints } from './countNear';
import { BIG_LAYER_BYTES } from './layerReads';
import { LayerService } from './service';

/** 100 beats of 1,000 corners (~4 MB of JSON: past BIG_LAYER_BYTES), 10 × 10 from a corner. */
function beats(lat = 41.8, lon = -87.7, step = 0.01): LatLon[][] {
  return Array.from({ length: 100 }, (_, k) =>
    wavyRing(1000, lat + (k % 10) * step, lon + Math.floor(k / 10) * step, step * 0.4),
  );
}

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

const keep = (layers: LayerService, rings: LatLon[][]) =>
  layers.store.create(fileOf(rings), { name: 'Beats', nameField: 'name', sourceName: 'b.geojson' }, 0);

describe('a big kept layer read on the helper thread', () => {
  let fx: EngineFixture;
  let engine: Engine;
  beforeEach(() => {
    fx = openEngine({ host: 'cli' });
    engine = fx.engine;
  });
  afterEach(() => fx.close());

  /** Which answered first: the long call, or a count asked once it was under way. */
  async function answeredFirst(long: () => Promise<unknown>): Promise<string[]> {
    await fx.call('countIncidents', { filters: { preset: 'all' } }); // the snapshot loaded beforehand
    const order: string[] = [];
    const job = long().finally(() => order.push('job'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await fx.call('countIncidents', { filters: { preset: 'all' } });
    order.push('count');
    await job;
    return order;
  }

  it('answers a call asked while getLayerFeatures parses a big layer, and draws the layer as kept', async () => {
    const rings = beats();
    const layers = engine.context.services.layers;
    const layer = keep(layers, rings);
    expect(layers.store.geometryBytes(layer.id)).toBeGreaterThan(BIG_LAYER_BYTES);
    let answer: LayerFeaturesResult | undefined;
    const order = await answeredFirst(async () => {
      answer = await fx.call<LayerFeaturesResult>('getLayerFeatures', { layerId: layer.id });
    });
    expect(order).toEqual(['count', 'job']);
    // Packed on the helper thread, its arrays moved here: 100 × 1,000 corners in one Float64Array.
    expect(answer!.geometry.coords).toHaveLength(2 * 100 * 1000);
    const drawn = featureViewsOf(answer!);
    expect(drawn.map((f) => f.name)).toEqual(rings.map((_, k) => `beat ${k + 1}`));
    expect(drawn.map((f) => f.geometry.kind === 'polygons' && f.geometry.polygons[0]![0])).toEqual(rings);
  });

  it('answers a call asked while countNearLayer parses a big layer', async () => {
    const layer = keep(engine.context.services.layers, beats());
    let total = -1;
    const order = await answeredFirst(async () => {
      ({ total } = await fx.call<{ total: number }>('countNearLayer', {
        filters: { preset: 'all' },
        layerId: layer.id,
        bufferM: 100,
      }));
    });
    expect(order).toEqual(['count', 'job']);
    expect(total).toBe(0); // the folder has no incidents
  });

  it('ends a big read under way when the engine closes (cancelled)', async () => {
    const layers = engine.context.services.layers;
    const layer = keep(layers, beats());
    const reading = layers.packedLayer(layer.id);
    layers.close();
    await expect(reading).rejects.toMatchObject({ code: 'cancelled' });
  });
});

describe('counting near a big layer on the helper thread', () => {
  let f: Fixture;
  let layers: LayerService;
  let lat: Float64Array;
  let lon: Float64Array;
  beforeAll(() => {
    f = openFixture({ count: 4000 });
    const rows = f.db.prepare('SELECT lat, lon FROM incidents WHERE removed_at IS NULL').all() as {
      lat: number;
      lon: number;
    }[];
    lat = Float64Array.from(rows, (r) => r.lat);
    lon = Float64Array.from(rows, (r) => r.lon);
    layers = new LayerService({ db: f.db, dataDir: f.dir.path, query: f.service });
  });
  afterAll(async () => {
    layers.close();
    await closeFixture(f);
  });

  it('counts what the engine thread counts over the same incidents and geometry', async () => {
    const q = (xs: Float64Array, p: number) => [...xs].sort((a, b) => a - b)[Math.floor(p * xs.length)]!;
    const rings = beats(q(lat, 0.3), q(lon, 0.3), (q(lat, 0.7) - q(lat, 0.3)) / 10);
    const layer = keep(layers, rings);
    const got = await layers.countNear({ preset: 'all' }, layer.id, 150);
    const want = await countNearPoints(
      lat,
      lon,
      rings.map((ring, k) => ({ id: k, name: '', geometry: { kind: 'polygons', polygons: [[ring]] } })),
      150,
    );
    expect(got.features.map((x) => x.count)).toEqual(want.counts);
    expect(got.total).toBe(want.total);
    expect(got.total).toBeGreaterThan(0);
    expect(got.filtered).toBe(lat.length);
  });
});
