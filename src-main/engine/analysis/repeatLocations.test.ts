import { describe, expect, it } from 'vitest';
import { dayNumber } from '../../../src-shared/filters';
import { exactRepeats, repeatsWithin } from './repeatLocations';
import { CENTRE_X, CENTRE_Y, toLatLon } from './testPoints';

// Metres east of the test centre: a chain 0–40–80 m (each link 40 m), a pair 1000/1000 m (same
// point), a loner at 3000 m.
const xs = [0, 40, 80, 1000, 1000, 3000];
const p = toLatLon({ x: Float64Array.from(xs, (v) => CENTRE_X + v), y: new Float64Array(6).fill(CENTRE_Y) });
const day = Int32Array.from(
  ['2024-03-02', '2024-03-01', '2024-03-09', '2024-05-01', '2024-05-01', '2024-01-01'],
  dayNumber,
);

describe('repeat locations', () => {
  it('groups incidents at exactly the same point, two or more, with their local dates', () => {
    const groups = exactRepeats(p.lat, p.lon, day);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ members: [3, 4], count: 2, first: '2024-05-01', last: '2024-05-01' });
  });

  it('groups incidents connected by steps closer than the distance', () => {
    const groups = repeatsWithin(p.lat, p.lon, day, 50);
    expect(groups.map((g) => g.members)).toEqual([
      [0, 1, 2],
      [3, 4],
    ]);
    expect(groups[0]).toMatchObject({ first: '2024-03-01', last: '2024-03-09' });
    expect(groups[0]!.days).toEqual(['2024-03-01', '2024-03-02', '2024-03-09']);
    // Links of 40 m are not closer than 39.5 m.
    expect(repeatsWithin(p.lat, p.lon, day, 39.5).map((g) => g.members)).toEqual([[3, 4]]);
    expect(repeatsWithin(p.lat, p.lon, day, 1900).map((g) => g.count)).toEqual([5]);
  });
});

describe('repeat locations as an analysis', () => {
  it('refuses below 30 incidents and records its parameters', async () => {
    const { repeatLocations } = await import('./repeatLocations');
    expect(() => repeatLocations(p.lat, p.lon, day, 50)).toThrow(/at least 30 incidents/);
    const many = (a: Float64Array) => Float64Array.from({ length: 36 }, (_, i) => a[i % 6]!);
    const r = repeatLocations(
      many(p.lat),
      many(p.lon),
      Int32Array.from({ length: 36 }, (_, i) => day[i % 6]!),
      50,
    );
    expect(r.parameters).toEqual({
      method: 'connected within distance',
      distance_m: 50,
      incidents: 36,
      utm_epsg: 32616,
    });
    expect(r.groups.map((g) => g.count)).toEqual([18, 12, 6]);
  });
});
