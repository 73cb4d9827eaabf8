/**
 * The bulletin's map for one feature of a layer (a beat): the feature's own outline, named once,
 * instead of the synced areas around it; its label at the outline's northernmost point.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLayerStore } from '../boundaries/layerStore';
import { openDatabase } from '../store/database';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { featureOutlines, labelPoint } from './reportModel';

let dir: TempDir | null = null;
afterEach(() => {
  dir?.remove();
  dir = null;
});

describe('the bulletin’s map of one feature', () => {
  it('outlines the feature’s parts, not the areas, and only for a feature filter', () => {
    dir = makeTempDir('blotter-bulletin-map-');
    const db = openDatabase(path.join(dir.path, 'blotter.sqlite'));
    try {
      const square = (lat: number, lon: number): [number, number][] => [
        [lat, lon],
        [lat + 0.01, lon],
        [lat + 0.01, lon + 0.01],
        [lat, lon + 0.01],
      ];
      const layer = createLayerStore(db).create(
        {
          format: 'geojson',
          fields: ['BEAT'],
          crs: 'EPSG:4326',
          skipped: [],
          features: [
            {
              index: 1,
              properties: { BEAT: '0111' },
              geometry: { kind: 'polygons', polygons: [[square(41.88, -87.63)], [square(41.9, -87.6)]] },
            },
            {
              index: 2,
              properties: { BEAT: 'School' },
              geometry: { kind: 'points', points: [[41.8, -87.7]] },
            },
          ],
        },
        { name: 'Beats', nameField: 'BEAT', sourceName: 'beats.geojson' },
        0,
      );
      const [beat, school] = createLayerStore(db).features(layer.id);
      const ctx = { db };
      expect(featureOutlines(ctx, { area: { areaId: 1 } })).toBeNull();
      const outlines = featureOutlines(ctx, { feature: { layerId: layer.id, featureId: beat!.id } });
      expect(outlines).toEqual([
        { name: '0111', ring: square(41.88, -87.63) },
        { name: '0111', ring: square(41.9, -87.6) },
      ]);
      // A point feature has no outline: the areas' are drawn.
      expect(
        featureOutlines(ctx, { feature: { layerId: layer.id, featureId: school!.id, bufferM: 300 } }),
      ).toBeNull();
      expect(labelPoint(square(41.88, -87.63))).toEqual([41.89, -87.63]);
    } finally {
      db.close();
    }
  });
});
