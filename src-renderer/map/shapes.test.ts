import { describe, expect, it } from 'vitest';
import { AreaShape } from '../../src-shared/sync';
import { circleShape, polygonShape } from './shapes';

describe('drawn shapes', () => {
  it('turns a drawn circle into an area circle in miles', () => {
    const shape = circleShape({ lat: 41.8781234567, lng: -87.6298 }, 1609.344 * 2.5);
    expect(shape).toEqual({ kind: 'circle', lat: 41.878123, lon: -87.6298, radiusMi: 2.5 });
    expect(AreaShape.safeParse(shape).success).toBe(true);
  });

  it('turns a drawn polygon into [lat, lon] corners, without a repeated closing corner', () => {
    const ring = [
      { lat: 41.9, lng: -87.7 },
      { lat: 41.9, lng: -87.6 },
      { lat: 41.8, lng: -87.6 },
      { lat: 41.9, lng: -87.7 },
    ];
    const shape = polygonShape(ring);
    expect(shape).toEqual({
      kind: 'polygon',
      points: [
        [41.9, -87.7],
        [41.9, -87.6],
        [41.8, -87.6],
      ],
    });
    expect(AreaShape.safeParse(shape).success).toBe(true);
  });
});
