/**
 * Reading a boundary file and checking its geometry run on a helper thread (boundaryThread.ts):
 * a call asked while a big file is read is answered before the read ends (it waited seconds
 * behind it on the engine thread), the read's refusals keep their words, the kept layer is the
 * file's, and closing the engine ends a read under way.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LatLon } from '../../../src-shared/geo';
import { featureViewsOf, type LayerFeaturesResult } from '../../../src-shared/layerCalls';
import { wavyRing, zigzagStar } from '../../../src-shared/geo/rings.testing';
import type { Engine } from '../engine';
import { openEngine, type EngineFixture } from '../testing/engineFixture';

let fx: EngineFixture;
let engine: Engine;
beforeEach(() => {
  fx = openEngine({ host: 'cli' });
  engine = fx.engine;
});
afterEach(() => fx.close());

function geojson(name: string, rings: readonly (readonly LatLon[])[]): string {
  const file = path.join(fx.tmp.path, name);
  const features = rings.map((ring, k) => ({
    type: 'Feature',
    properties: { name: `beat ${k + 1}` },
    geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]!].map(([lat, lon]) => [lon, lat])] },
  }));
  writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }));
  return file;
}

/** Which of the two calls answered first: the long one, or one asked once it was under way. */
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

describe('a boundary file read on a helper thread', () => {
  it('answers a call asked during the self-crossing check of a 250k-corner star before the check ends', async () => {
    const star = geojson('star.geojson', [zigzagStar(249_998)]);
    let featureCount = 0;
    const order = await answeredFirst(async () => {
      featureCount = (
        await fx.call<{ featureCount: number }>('previewBoundaries', { source: { path: star } })
      ).featureCount;
    });
    expect(order).toEqual(['count', 'job']);
    expect(featureCount).toBe(1);
  });

  it('answers a call asked while 500 beats are read, and while they are kept as a layer with their geometry', async () => {
    const beats = Array.from({ length: 500 }, (_, k) =>
      wavyRing(999, 41.7 + (k % 25) * 0.02, -87.9 + Math.floor(k / 25) * 0.02, 0.008),
    );
    const file = geojson('beats.geojson', beats);
    let previewId = '';
    const order = await answeredFirst(async () => {
      ({ previewId } = await fx.call<{ previewId: string }>('previewBoundaries', { source: { path: file } }));
    });
    expect(order).toEqual(['count', 'job']);
    let layer = { id: 0, featureCount: 0 };
    // Keeping it: the geometry written out as JSON on the helper thread, a call answered meanwhile.
    const keeping = await answeredFirst(async () => {
      layer = await fx.call('importLayer', { previewId, name: 'Beats', nameField: 'name' });
    });
    expect(keeping).toEqual(['count', 'job']);
    expect(layer.featureCount).toBe(500);
    const drawn = featureViewsOf(
      await fx.call<LayerFeaturesResult>('getLayerFeatures', { layerId: layer.id }),
    );
    expect(drawn[7]!.name).toBe('beat 8');
    expect(drawn[7]!.geometry).toEqual({ kind: 'polygons', polygons: [[beats[7]]] });
  });

  it('makes areas on the helper thread, refusing a point with the reason', async () => {
    const file = path.join(fx.tmp.path, 'mixed.geojson');
    const square = [
      [-87.63, 41.88],
      [-87.62, 41.88],
      [-87.62, 41.89],
      [-87.63, 41.89],
      [-87.63, 41.88],
    ];
    writeFileSync(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            properties: { n: 'Beat' },
            geometry: { type: 'Polygon', coordinates: [square] },
          },
          {
            type: 'Feature',
            properties: { n: 'School' },
            geometry: { type: 'Point', coordinates: [-87.6, 41.8] },
          },
        ],
      }),
    );
    const { previewId } = await fx.call<{ previewId: string }>('previewBoundaries', {
      source: { path: file },
    });
    await expect(fx.call('areasFromBoundaries', { previewId, nameField: 'n' })).rejects.toThrow(
      /^Feature 2 "School" is a point, which makes no area/,
    );
    const made = await fx.call<{ areas: { name: string }[] }>('areasFromBoundaries', {
      previewId,
      nameField: 'n',
      indexes: [1],
    });
    expect(made.areas.map((a) => a.name)).toEqual(['Beat']);
  });

  it('reads a file and makes its areas, reads it again and keeps it as a layer, on one helper thread ended when the engine closes', async () => {
    const file = geojson('beats.geojson', [wavyRing(40, 41.8, -87.6, 0.01), wavyRing(40, 41.9, -87.7, 0.01)]);
    const preview = () =>
      fx
        .call<{ previewId: string }>('previewBoundaries', { source: { path: file } })
        .then((p) => p.previewId);
    const made = await fx.call<{ areas: unknown[] }>('areasFromBoundaries', {
      previewId: await preview(),
      nameField: 'name',
    });
    expect(made.areas).toHaveLength(2);
    const layer = await fx.call<{ featureCount: number }>('importLayer', {
      previewId: await preview(),
      name: 'Beats',
      nameField: 'name',
    });
    expect(layer.featureCount).toBe(2);
    const layers = engine.context.services.layers;
    expect(layers.threads.started).toBe(1);
    layers.close();
    await expect(layers.threads.run({ kind: 'read', file, name: 'beats.geojson' })).rejects.toThrow(
      /no longer wanted/,
    );
  });

  it('refuses a self-crossing ring read on the thread, naming the feature', async () => {
    const bow: LatLon[] = [
      [41.8, -87.6],
      [41.81, -87.59],
      [41.8, -87.59],
      [41.81, -87.6],
    ];
    const file = geojson('bow.geojson', [bow]);
    await expect(fx.call('previewBoundaries', { source: { path: file } })).rejects.toThrow(
      /^bow\.geojson: Some features have invalid geometry, so nothing was read: feature 1 "beat 1": /,
    );
  });

  it('ends a read under way when the engine closes (cancelled, not left running)', async () => {
    const star = geojson('star.geojson', [zigzagStar(249_998)]);
    const layers = engine.context.services.layers;
    const read = layers.preview({ path: star });
    layers.close();
    await expect(read).rejects.toMatchObject({ code: 'cancelled' });
    await expect(layers.preview({ path: star })).rejects.toMatchObject({ code: 'cancelled' });
  });
});
