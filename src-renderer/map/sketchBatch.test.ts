import { describe, expect, it } from 'vitest';
import { sketchBatch } from './sketchBatch';

describe('sketchBatch', () => {
  it('draws one mark per cell with its counts per type, adding up to the total', () => {
    const batch = sketchBatch({
      total: 7,
      types: ['Theft', 'Assault'],
      lat: [41.8, 41.9],
      lon: [-87.6, -87.7],
      count: [3, 4],
      typeCounts: [1, 2, 4, 0],
      bounds: [-87.7, 41.8, -87.6, 41.9],
      updating: false,
    });
    expect(batch.size).toBe(2);
    expect([...batch.count].reduce((a, b) => a + b, 0)).toBe(7);
    expect([...batch.typeCounts.subarray(2, 4)]).toEqual([4, 0]);
    expect(batch.lat[1]).toBeCloseTo(41.9);
  });
});
