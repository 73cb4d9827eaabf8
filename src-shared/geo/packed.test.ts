/** Feature geometry packed in typed arrays comes back as it went in, one feature or a whole layer. */
import { describe, expect, it } from 'vitest';
import { decodeWire, encodeWire } from '../wire';
import type { FeatureGeometry } from './features';
import { featureOfLayer, packGeometry, packLayerGeometry, unpackGeometry } from './packed';

const square = (lat: number, lon: number, d: number): [number, number][] => [
  [lat, lon],
  [lat + d, lon],
  [lat + d, lon + d],
  [lat, lon + d],
];

/** A polygon with a hole, a two-part polygon, points, and a feature of no corners at all. */
const geometries: FeatureGeometry[] = [
  { kind: 'polygons', polygons: [[square(41.8, -87.7, 0.1), square(41.82, -87.68, 0.01)]] },
  {
    kind: 'points',
    points: [
      [41.881, -87.623],
      [41.9, -87.6],
      [-33.8688, 151.2093],
    ],
  },
  { kind: 'polygons', polygons: [[square(41.7, -87.9, 0.05)], [square(41.6, -87.5, 0.02)]] },
  { kind: 'points', points: [] },
  {
    kind: 'polygons',
    polygons: [
      [
        [
          [1e-9, -179.999999999],
          [0.5, 179.5],
          [-0.5, 179.5],
        ],
      ],
    ],
  },
];

describe('packed geometry', () => {
  it('round-trips one feature, holes and parts kept, to the bit', () => {
    for (const g of geometries) expect(unpackGeometry(packGeometry(g))).toEqual(g);
  });

  it("packs a layer's features in four arrays and gives each back by its position", () => {
    const layer = packLayerGeometry(geometries.map(packGeometry));
    expect(layer.coords).toBeInstanceOf(Float64Array);
    expect(layer.coords.length).toBe(2 * (8 + 3 + 8 + 0 + 3));
    expect([...layer.cornerStarts]).toEqual([0, 8, 11, 19, 19, 22]);
    geometries.forEach((g, k) => expect(unpackGeometry(featureOfLayer(layer, k, g.kind))).toEqual(g));
    expect(() => featureOfLayer(layer, geometries.length, 'points')).toThrow(RangeError);
  });

  it("survives the web host's wire (typed arrays as base64) unchanged", () => {
    const layer = packLayerGeometry(geometries.map(packGeometry));
    const back = decodeWire(encodeWire({ geometry: layer })) as { geometry: typeof layer };
    expect(back.geometry.partStarts).toBeInstanceOf(Int32Array);
    geometries.forEach((g, k) => expect(unpackGeometry(featureOfLayer(back.geometry, k, g.kind))).toEqual(g));
  });

  it('packs a layer of no features', () => {
    const layer = packLayerGeometry([]);
    expect([...layer.cornerStarts, ...layer.partStarts, layer.coords.length]).toEqual([0, 0, 0]);
  });
});
