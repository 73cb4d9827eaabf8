import { describe, expect, it } from 'vitest';
import { exactZoneAt, zoneAt } from './zoneAt';
import { cellKey, resolveCell, segmentMeetsRect } from './zoneCells';

/** A reproducible stream of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('zoneAt by cell', () => {
  it('answers as the exact lookup on random points over the US and its coasts', () => {
    const rand = seeded(16);
    for (let i = 0; i < 20_000; i++) {
      const lat = 18 + rand() * 32;
      const lon = -160 + rand() * 95;
      expect(zoneAt(lat, lon), `${lat},${lon}`).toBe(exactZoneAt(lat, lon));
    }
  });

  it('answers as the exact lookup right beside zone boundaries', () => {
    // Pairs of points in different zones (Central/Mountain in Texas and Kansas, Indiana's
    // counties, Kentucky, the Navajo Nation in Arizona, Idaho's split, North Dakota's counties),
    // bisected to a point on the boundary, then points scattered around it from 1 cm to 1 km.
    const regions: Array<[number, number, number, number]> = [
      [30, 33, -106, -103],
      [37, 40, -102.5, -100],
      [37.8, 41.8, -88.2, -84.7],
      [36.5, 38.5, -87, -84],
      [35, 37, -112, -109],
      [44, 47, -117, -113],
      [45.9, 48, -102.5, -100],
    ];
    const rand = seeded(7);
    let boundaries = 0;
    for (const [s, n, w, e] of regions) {
      for (let k = 0; k < 60; k++) {
        let a: [number, number] = [s + rand() * (n - s), w + rand() * (e - w)];
        let b: [number, number] = [s + rand() * (n - s), w + rand() * (e - w)];
        const za = exactZoneAt(...a);
        if (za === exactZoneAt(...b)) continue;
        for (let step = 0; step < 40; step++) {
          const m: [number, number] = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
          if (exactZoneAt(...m) === za) a = m;
          else b = m;
        }
        boundaries++;
        for (const radius of [1e-7, 1e-5, 1e-3, 1e-2]) {
          for (let j = 0; j < 10; j++) {
            const lat = a[0] + (rand() * 2 - 1) * radius;
            const lon = a[1] + (rand() * 2 - 1) * radius;
            expect(zoneAt(lat, lon), `${lat},${lon}`).toBe(exactZoneAt(lat, lon));
          }
        }
      }
    }
    expect(boundaries).toBeGreaterThan(100);
  });

  it('resolves a county inland by cells, and leaves a cell a boundary crosses to the exact lookup', () => {
    let resolved = 0;
    let cells = 0;
    for (let lat = 32.5; lat < 33.5; lat += 0.05) {
      for (let lon = -97.5; lon < -96.5; lon += 0.05) {
        cells++;
        if (resolveCell(cellKey(lat + 0.01, lon + 0.01)) === 'America/Chicago') resolved++;
      }
    }
    expect(resolved).toBe(cells);
    // The Mountain/Central line between El Paso and Midland, found by bisection: its cell is left
    // to the exact lookup.
    let a: [number, number] = [31.76, -106.44];
    let b: [number, number] = [32.0, -102.1];
    const west = exactZoneAt(...a);
    expect(west).not.toBe(exactZoneAt(...b));
    for (let step = 0; step < 40; step++) {
      const m: [number, number] = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      if (exactZoneAt(...m) === west) a = m;
      else b = m;
    }
    expect(resolveCell(cellKey(...a))).toBeNull();
  });

  it('segmentMeetsRect: crossing, touching, inside and beside', () => {
    expect(segmentMeetsRect(-1, 0.5, 2, 0.5, 0, 0, 1, 1)).toBe(true);
    expect(segmentMeetsRect(0.2, 0.2, 0.3, 0.3, 0, 0, 1, 1)).toBe(true);
    expect(segmentMeetsRect(1, -1, 1, 2, 0, 0, 1, 1)).toBe(true);
    expect(segmentMeetsRect(-1, 1.5, 1.5, -1.01, 0, 0, 1, 1)).toBe(true);
    expect(segmentMeetsRect(-1, 1.6, 0.6, 3, 0, 0, 1, 1)).toBe(false);
    expect(segmentMeetsRect(-1, 0.9, 0.05, 2, 0, 0, 1, 1)).toBe(false);
  });
});
