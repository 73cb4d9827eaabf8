/**
 * A preview's geometry crosses between threads packed in typed arrays: unpacked, it is the same
 * geometry — parts, holes and points in order — so the kept layer's JSON is what the file read.
 */
import { describe, expect, it } from 'vitest';
import type { FeatureGeometry } from '../../../src-shared/geo';
import { packGeometry, unpackGeometry } from './heldFile';

describe('packed geometry', () => {
  it('unpacks to the same polygons (parts and holes) and points', () => {
    const polygons: FeatureGeometry = {
      kind: 'polygons',
      polygons: [
        [
          [
            [41.8, -87.7],
            [41.9, -87.7],
            [41.9, -87.6],
          ],
          [
            [41.85, -87.66],
            [41.86, -87.66],
            [41.86, -87.65],
            [41.85, -87.65],
          ],
        ],
        [
          [
            [42, -88],
            [42.1, -88],
            [42.1, -87.9],
          ],
        ],
      ],
    };
    const points: FeatureGeometry = {
      kind: 'points',
      points: [
        [41.8, -87.6],
        [41.81, -87.61],
      ],
    };
    for (const g of [polygons, points]) {
      const packed = packGeometry(g);
      expect(unpackGeometry(packed)).toEqual(g);
      expect(JSON.stringify(unpackGeometry(packed))).toBe(JSON.stringify(g));
    }
    expect(packGeometry(polygons).coords.length).toBe(20);
  });
});
