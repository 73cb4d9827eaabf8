import { describe, expect, it } from 'vitest';
import { KDTree } from './kdTree';

describe('KDTree', () => {
  let seed = 3;
  const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const n = 5000;
  // Clumps and a spread, with duplicate points (repeat sites).
  const x = Float64Array.from({ length: n }, (_, i) =>
    i % 7 === 0 ? 0.25 : i % 2 ? 0.3 + rand() * 0.01 : rand(),
  );
  const y = Float64Array.from({ length: n }, (_, i) =>
    i % 7 === 0 ? 0.4 : i % 2 ? 0.4 + rand() * 0.01 : rand(),
  );
  const tree = new KDTree(x, y, n, 16);
  const f = (v: number) => Math.fround(v);

  it('finds exactly the points in a box', () => {
    for (let k = 0; k < 50; k++) {
      const [x0, y0] = [rand(), rand()];
      const [x1, y1] = [x0 + rand() * 0.3, y0 + rand() * 0.3];
      const expected = [];
      for (let i = 0; i < n; i++) {
        if (
          f(x[i] as number) >= x0 &&
          f(x[i] as number) <= x1 &&
          f(y[i] as number) >= y0 &&
          f(y[i] as number) <= y1
        )
          expected.push(i);
      }
      expect(tree.range(x0, y0, x1, y1, []).sort((a, b) => a - b)).toEqual(expected);
    }
  });

  it('finds exactly the points within a distance, duplicates included', () => {
    for (const [qx, qy, r] of [
      [0.25, 0.4, 0],
      [0.305, 0.405, 0.002],
      [0.5, 0.5, 0.1],
    ] as const) {
      const expected = [];
      for (let i = 0; i < n; i++) {
        if ((f(x[i] as number) - qx) ** 2 + (f(y[i] as number) - qy) ** 2 <= r * r) expected.push(i);
      }
      expect(tree.within(qx, qy, r, []).sort((a, b) => a - b)).toEqual(expected);
    }
    expect(tree.within(f(0.25), f(0.4), 0, []).length).toBe(Math.ceil(n / 7));
    expect(new KDTree([], [], 0).range(0, 0, 1, 1, [])).toEqual([]);
  });
});
