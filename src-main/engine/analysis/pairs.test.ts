import { describe, expect, it } from 'vitest';
import { closePairs } from './pairs';
import { uniformPoints } from './testPoints';

describe('close pairs', () => {
  it('finds exactly the pairs a brute-force search finds', () => {
    const p = uniformPoints(1500, 3000, 9);
    const found = closePairs(p.x, p.y, 120);
    const want = new Set<string>();
    for (let i = 0; i < 1500; i++)
      for (let j = i + 1; j < 1500; j++)
        if (Math.hypot(p.x[i]! - p.x[j]!, p.y[i]! - p.y[j]!) <= 120) want.add(`${i},${j}`);
    const got = new Set<string>();
    for (let k = 0; k < found.size; k++) got.add(`${found.i[k]},${found.j[k]}`);
    expect(got).toEqual(want);
    expect(found.size).toBe(want.size);
  });

  it('counts a pair at exactly the distance unless asked for strictly closer', () => {
    const x = Float64Array.of(0, 100, 300);
    const y = Float64Array.of(0, 0, 0);
    expect(closePairs(x, y, 100).size).toBe(1);
    expect(closePairs(x, y, 100, true).size).toBe(0);
  });
});
