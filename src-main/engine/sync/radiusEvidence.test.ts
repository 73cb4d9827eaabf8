import { describe, expect, it } from 'vitest';
import { MILES_PER_DEGREE } from '../../../src-shared/geo';
import { coveringTile } from '../geo/tiles';
import { areaReach, provenRadius, readingOf, sentRadius } from './radiusEvidence';

const fishers = { kind: 'circle' as const, lat: 39.9568, lon: -86.0134, radiusMi: 2 };
const tile = coveringTile(fishers);
const wide = { ...tile, radius: tile.radius * 1.02 };
/** Points at `share` of a degree-space radius `r` around the tile's centre, all around. */
const ring = (r: number, share: number, n = 36) =>
  Array.from({ length: n }, (_, k) => {
    const a = (k / n) * 2 * Math.PI;
    return { lat: tile.lat + r * share * Math.cos(a), lon: tile.lon + r * share * Math.sin(a) };
  });

describe('radius evidence', () => {
  it('reaches: a ground circle is wider east–west in degree space than in degrees of arc', () => {
    const reach = areaReach(wide, fishers);
    expect(reach.arc).toBeCloseTo(2 / MILES_PER_DEGREE, 4);
    expect(reach.degrees / reach.arc).toBeCloseTo(1 / Math.cos((fishers.lat * Math.PI) / 180), 2);
  });

  it('believes rows that reach past the area in both measures, and not rows a clamp kept short', () => {
    expect(provenRadius(wide, fishers, ring(wide.radius, 0.995))).not.toBeNull();
    // A server that clamped to 1.9 miles: every row within it, however many.
    const clamp = 1.9 / MILES_PER_DEGREE;
    expect(provenRadius(wide, fishers, ring(clamp, 1, 500))).toBeNull();
    expect(provenRadius(wide, fishers, [])).toBeNull();
  });

  it('tells a great-circle server by rows beyond the degree circle and none beyond the great circle', () => {
    const r = tile.radius;
    const eastWest = [0.2, 0.25, 0.3].map((f) => ({ lat: tile.lat + f * r, lon: tile.lon + 1.2 * r }));
    expect(readingOf(tile, [...ring(r, 0.5), ...eastWest])).toBe('great-circle');
    expect(readingOf(tile, ring(r, 0.99))).toBeNull();
    // A row beyond the great circle too (north of it): not a great-circle server either.
    expect(readingOf(tile, [...eastWest, { lat: tile.lat + 1.1 * r, lon: tile.lon }])).toBeNull();
  });

  it('asks a great-circle server the ground circle of the area, and a degree-space one its degree circle', () => {
    expect(sentRadius(wide, fishers, null)).toBe(wide.radius);
    const ground = sentRadius(wide, fishers, 'great-circle');
    expect(ground).toBeGreaterThanOrEqual(2 / MILES_PER_DEGREE);
    expect(ground).toBeLessThan((2 / MILES_PER_DEGREE) * 1.03);
  });
});
