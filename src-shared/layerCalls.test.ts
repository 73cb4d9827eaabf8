/** What a page may send the layer calls: names are one printable line; counts and sizes bounded. */
import { describe, expect, it } from 'vitest';
import { packGeometry, packLayerGeometry } from './geo';
import { featureViewsOf, layerCalls } from './layerCalls';

describe('layer call inputs', () => {
  it('take a layer name of one printable line, and refuse control characters, line breaks and bidi overrides', () => {
    const rename = layerCalls.renameLayer.input;
    expect(rename.parse({ layerId: 1, name: '  Police beats 2024 ' }).name).toBe('Police beats 2024');
    for (const name of [
      'Beats\n{"layer":9}',
      'Beats\u001b[2J',
      'Beats\u202eevil',
      'a\u0000b',
      'x'.repeat(101),
    ])
      expect(rename.safeParse({ layerId: 1, name }).success).toBe(false);
    expect(
      layerCalls.importLayer.input.safeParse({ previewId: 'p', name: 'Parks\r\nfake line', nameField: null })
        .success,
    ).toBe(false);
  });

  it('bound the features a page may name, a distance and a layer id', () => {
    const areas = layerCalls.areasFromBoundaries.input;
    expect(
      areas.safeParse({
        previewId: 'p',
        nameField: 'n',
        indexes: Array.from({ length: 5001 }, (_, i) => i + 1),
      }).success,
    ).toBe(false);
    expect(areas.safeParse({ previewId: 'p', nameField: 'n', names: ['x'.repeat(201)] }).success).toBe(false);
    const count = layerCalls.countNearLayer.input;
    for (const bufferM of [-1, 50_001, Number.NaN, Number.POSITIVE_INFINITY])
      expect(count.safeParse({ layerId: 1, bufferM }).success).toBe(false);
    expect(count.safeParse({ layerId: 1.5, bufferM: 10 }).success).toBe(false);
    expect(layerCalls.previewBoundaries.input.safeParse({ source: { path: 'x'.repeat(5000) } }).success).toBe(
      false,
    );
  });
});

describe("getLayerFeatures' answer", () => {
  it('carries the geometry packed, and featureViewsOf gives each feature its nested rings back', () => {
    const polygons: [number, number][][][] = [
      [
        [
          [41.8, -87.7],
          [41.9, -87.7],
          [41.9, -87.6],
        ],
      ],
    ];
    const points: [number, number][] = [[41.88, -87.62]];
    const answer = layerCalls.getLayerFeatures.output.parse({
      layer: {
        id: 1,
        name: 'Mixed',
        nameField: null,
        sourceName: 'm.geojson',
        format: 'geojson',
        crs: 'EPSG:4326',
        featureCount: 2,
        kinds: ['polygons', 'points'],
        createdAt: 0,
      },
      features: [
        { id: 7, name: 'beat', kind: 'polygons' },
        { id: 8, name: 'school', kind: 'points' },
      ],
      geometry: packLayerGeometry([
        packGeometry({ kind: 'polygons', polygons }),
        packGeometry({ kind: 'points', points }),
      ]),
    });
    expect(featureViewsOf(answer)).toEqual([
      { id: 7, name: 'beat', geometry: { kind: 'polygons', polygons } },
      { id: 8, name: 'school', geometry: { kind: 'points', points } },
    ]);
    // Nested arrays are not the contract's answer any more.
    expect(
      layerCalls.getLayerFeatures.output.safeParse({ ...answer, geometry: { coords: [41.8, -87.7] } })
        .success,
    ).toBe(false);
  });
});
