import { describe, expect, it } from 'vitest';
import { PageCache } from './pageCache';

const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

describe('the table page cache', () => {
  it('asks for the first page first, then only the pages scrolled into view', () => {
    const cache = new PageCache<number>(100);
    expect(cache.wanted(0, 40)).toEqual([0]);
    const [first] = cache.request([0]);
    expect(first).toEqual({ page: 0, offset: 0, limit: 100, generation: 0 });
    expect(cache.wanted(0, 40)).toEqual([]); // in flight: never twice at once
    cache.put(0, rows(0, 100), 1_234);
    expect(cache.total).toBe(1_234);
    expect(cache.rowAt(99)).toBe(99);
    expect(cache.rowAt(100)).toBeUndefined();
    expect(cache.wanted(90, 260)).toEqual([1, 2]);
    expect(cache.wanted(1_200, 5_000)).toEqual([12]); // clipped to the result
  });

  it('lets a failed page be asked for again', () => {
    const cache = new PageCache<number>(50);
    cache.request([3]);
    cache.fail(3);
    expect(cache.wanted(150, 160)).toEqual([3]);
  });

  it('keeps rows on screen when the archive changes, and fetches them again', () => {
    const cache = new PageCache<number>(10);
    const [old] = cache.request([0]);
    cache.invalidate();
    cache.put(0, rows(0, 10), 40, old?.generation);
    // An answer asked for before the change is shown, but marked for refetching.
    expect(cache.rowAt(3)).toBe(3);
    expect(cache.wanted(0, 5)).toEqual([0]);
    const [fresh] = cache.request([0]);
    expect(fresh?.generation).toBe(1);
    cache.put(0, rows(100, 10), 40, fresh?.generation);
    expect(cache.rowAt(3)).toBe(103);
    expect(cache.wanted(0, 5)).toEqual([]);
  });

  it('drops pages past a shrunken result and refetches shifted ones', () => {
    const cache = new PageCache<number>(10);
    cache.request([0, 1, 2]);
    cache.put(0, rows(0, 10), 30);
    cache.put(1, rows(10, 10), 30);
    cache.put(2, rows(20, 10), 30);
    cache.request([0]);
    cache.put(0, rows(0, 10), 15);
    expect(cache.total).toBe(15);
    expect(cache.rowAt(25)).toBeUndefined();
    expect(cache.wanted(0, 14)).toEqual([1]);
  });

  it('evicts the least recently loaded pages beyond its bound', () => {
    const cache = new PageCache<number>(10, 3);
    for (const p of [0, 1, 2, 3]) {
      cache.request([p]);
      cache.put(p, rows(p * 10, 10), 1_000);
    }
    expect(cache.loadedPages).toBe(3);
    expect(cache.rowAt(5)).toBeUndefined();
    expect(cache.rowAt(35)).toBe(35);
  });

  it('refuses pages larger than the engine serves', () => {
    expect(() => new PageCache(501)).toThrow(RangeError);
  });
});
