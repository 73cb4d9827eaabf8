import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { featureViewsOf, type LayerFeaturesResult } from '../../../src-shared/layerCalls';
import { toWireValue } from '../../../src-shared/wire';
import type { Engine } from '../engine';
import { openEngine, type EngineFixture } from '../testing/engineFixture';
import type { TempDir } from '../testing/tempDir';
import { MAX_AREAS_FROM_FILE } from '../boundaries/service';

let fx: EngineFixture;
let tmp: TempDir;
let engine: Engine;

beforeEach(() => {
  fx = openEngine({ host: 'cli' });
  ({ tmp, engine } = fx);
});
afterEach(() => fx.close());

async function call<T>(name: string, input: unknown): Promise<T> {
  const r = (await engine.dispatch(name as never, input)) as {
    ok: boolean;
    value?: T;
    error?: { message: string };
  };
  if (!r.ok) throw new Error(r.error?.message);
  return r.value as T;
}

const ring = (lat: number, lon: number, d: number, n = 4): number[][] => {
  const pts = Array.from({ length: n }, (_, k) => {
    const a = (k / n) * 2 * Math.PI;
    return [lon + d * Math.cos(a), lat + d * Math.sin(a)];
  });
  return [...pts, pts[0]!];
};

function file(name: string, features: object[]): string {
  const p = path.join(tmp.path, name);
  writeFileSync(p, JSON.stringify({ type: 'FeatureCollection', features }));
  return p;
}

describe('boundary calls', () => {
  it('keep a previewed file as a layer; list, draw, rename and delete it', async () => {
    const beats = file('beats.geojson', [
      {
        type: 'Feature',
        properties: { BEAT: '0111' },
        geometry: { type: 'Polygon', coordinates: [ring(41.88, -87.63, 0.01)] },
      },
      {
        type: 'Feature',
        properties: { BEAT: '0112' },
        geometry: { type: 'Polygon', coordinates: [ring(41.9, -87.63, 0.01)] },
      },
    ]);
    const preview = await call<{
      previewId: string;
      featureCount: number;
      nameField: string;
      fields: string[];
    }>('previewBoundaries', { source: { path: beats } });
    expect(preview).toMatchObject({ featureCount: 2, nameField: 'BEAT', fields: ['BEAT'] });
    // Nothing is kept before the user says so.
    expect(await call('listLayers', {})).toEqual({ layers: [] });
    const layer = await call<{ id: number; name: string; featureCount: number }>('importLayer', {
      previewId: preview.previewId,
      name: 'Beats',
      nameField: 'BEAT',
    });
    expect(layer).toMatchObject({ name: 'Beats', featureCount: 2, kinds: ['polygons'] });
    const drawn = await call<LayerFeaturesResult>('getLayerFeatures', { layerId: layer.id });
    expect(drawn.features.map((f) => f.name)).toEqual(['0111', '0112']);
    // The geometry is packed in typed arrays (sent to a host as bytes), each feature's rings as read.
    expect(drawn.geometry.coords).toBeInstanceOf(Float64Array);
    expect(featureViewsOf(drawn).map((f) => f.geometry)).toEqual(
      [ring(41.88, -87.63, 0.01), ring(41.9, -87.63, 0.01)].map((r) => ({
        kind: 'polygons',
        polygons: [[r.slice(0, -1).map(([lon, lat]) => [lat, lon])]],
      })),
    );
    // The web host's form of the answer: four buffers of base64 moved, nothing per corner.
    const moved: ArrayBuffer[] = [];
    toWireValue(drawn, moved);
    expect(moved).toHaveLength(4);
    expect(
      (await call<{ name: string }>('renameLayer', { layerId: layer.id, name: 'Police beats' })).name,
    ).toBe('Police beats');
    expect(await call('deleteLayer', { layerId: layer.id })).toEqual({ deleted: true });
    expect(await call('listLayers', {})).toEqual({ layers: [] });
    await expect(call('getLayerFeatures', { layerId: layer.id })).rejects.toThrow(/no longer exists/);
  });

  it('make areas of polygon features through the area store — one per part, a big ring simplified', async () => {
    const parks = file('parks.geojson', [
      {
        type: 'Feature',
        properties: { NAME: 'Grant Park' },
        geometry: { type: 'Polygon', coordinates: [ring(41.87, -87.62, 0.01, 900)] },
      },
      {
        type: 'Feature',
        properties: { NAME: 'Islands' },
        geometry: {
          type: 'MultiPolygon',
          coordinates: [[ring(41.8, -87.6, 0.005)], [ring(41.81, -87.58, 0.005)]],
        },
      },
      {
        type: 'Feature',
        properties: { NAME: 'Skipped' },
        geometry: { type: 'Polygon', coordinates: [ring(41.7, -87.6, 0.01)] },
      },
    ]);
    const preview = await call<{ previewId: string }>('previewBoundaries', { source: { path: parks } });
    const made = await call<{
      areas: { name: string; shape: { kind: string; points: unknown[] } }[];
      notes: string[];
    }>('areasFromBoundaries', { previewId: preview.previewId, nameField: 'NAME', indexes: [1, 2] });
    expect(made.areas.map((a) => a.name)).toEqual(['Grant Park', 'Islands (part 1)', 'Islands (part 2)']);
    expect(made.areas[0]!.shape.kind).toBe('polygon');
    expect(made.areas[0]!.shape.points.length).toBeLessThanOrEqual(500);
    expect(made.notes[0]).toMatch(
      /"Grant Park": 900 corners simplified to \d+ \(moved at most about \d+ m\)/,
    );
    const { areas } = await call<{ areas: { name: string }[] }>('listAreas', {});
    expect(areas.map((a) => a.name)).toEqual(['Grant Park', 'Islands (part 1)', 'Islands (part 2)']);
    // A chosen feature by its name (any case); an unknown name is refused, saying which.
    const again = await call<{ previewId: string }>('previewBoundaries', { source: { path: parks } });
    await expect(
      call('areasFromBoundaries', { previewId: again.previewId, nameField: 'NAME', names: ['Nowhere'] }),
    ).rejects.toThrow(/No feature is named "nowhere" by NAME/);
    const one = await call<{ areas: { name: string }[] }>('areasFromBoundaries', {
      previewId: again.previewId,
      nameField: 'NAME',
      names: ['skipped'],
    });
    expect(one.areas.map((a) => a.name)).toEqual(['Skipped']);
    // The preview is used up.
    await expect(
      call('importLayer', { previewId: preview.previewId, name: 'x', nameField: null }),
    ).rejects.toThrow(/no longer read in/);
  });

  it('refuse to make more areas from one file than can be synced one by one, making none', async () => {
    const square = (i: number) => {
      const x = -87.7 + (i % 20) * 0.01;
      const y = 41.8 + Math.floor(i / 20) * 0.01;
      return [
        [x, y],
        [x + 0.005, y],
        [x + 0.005, y + 0.005],
        [x, y + 0.005],
        [x, y],
      ];
    };
    const blocks = file(
      'blocks.geojson',
      Array.from({ length: MAX_AREAS_FROM_FILE + 1 }, (_, i) => ({
        type: 'Feature',
        properties: { NAME: `Block ${i + 1}` },
        geometry: { type: 'Polygon', coordinates: [square(i)] },
      })),
    );
    const preview = await call<{ previewId: string }>('previewBoundaries', { source: { path: blocks } });
    await expect(
      call('areasFromBoundaries', { previewId: preview.previewId, nameField: 'NAME' }),
    ).rejects.toThrow(/That would make 201 areas \(at most 200 at once\)/);
    const { areas } = await call<{ areas: unknown[] }>('listAreas', {});
    expect(areas).toEqual([]);
  });

  it('refuse points as areas and a file that is not a boundary file, saying why', async () => {
    const schools = file('schools.geojson', [
      {
        type: 'Feature',
        properties: { NAME: 'Lincoln' },
        geometry: { type: 'Point', coordinates: [-87.6, 41.9] },
      },
    ]);
    const preview = await call<{ previewId: string }>('previewBoundaries', { source: { path: schools } });
    await expect(
      call('areasFromBoundaries', { previewId: preview.previewId, nameField: 'NAME' }),
    ).rejects.toThrow(/"Lincoln" is a point, which makes no area/);
    const csv = path.join(tmp.path, 'x.csv');
    writeFileSync(csv, 'a,b\n1,2\n');
    await expect(call('previewBoundaries', { source: { path: csv } })).rejects.toThrow(
      /x.csv: Blotter reads boundaries from GeoJSON/,
    );
  });
});
