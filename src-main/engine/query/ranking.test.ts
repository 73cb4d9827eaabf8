import { describe, expect, it } from 'vitest';
import { prng } from '../../../bench/lib/seedData';
import { Dictionary } from './dictionary';
import { Ranking } from './ranking';
import { yieldToEventLoop } from '../eventLoop';
import { addressSortKey } from './sortOrders';

const order = (dict: Dictionary, rank: Uint32Array): string[] => {
  const out: string[] = [];
  rank.forEach((position, id) => (out[position] = dict.values[id] as string));
  return out;
};

describe('Ranking', () => {
  it('sorts a large dictionary in slices, then keeps up with new values', async () => {
    const rand = prng(5);
    const dict = new Dictionary();
    const words = ['MAIN', 'OAK', 'main', 'Ö', 'A', 'B', 'AB', ''];
    while (dict.size < 30_000)
      dict.id(`${Math.floor(rand() * 12_000)} ${words[Math.floor(rand() * words.length)]} ${dict.size % 97}`);
    const ranking = new Ranking(dict, addressSortKey);
    let pauses = 0;
    const rank = await ranking.ranks(async () => {
      pauses++;
      await yieldToEventLoop();
    });
    expect(pauses).toBeGreaterThan(8);
    const want = [...dict.values].sort((a, b) => {
      const x = addressSortKey(a);
      const y = addressSortKey(b);
      return x < y ? -1 : x > y ? 1 : dict.find(a) - dict.find(b);
    });
    expect(order(dict, rank)).toEqual(want);

    for (const v of ['0 A', '99999 ZZZ', '500 MAIN 3']) dict.id(v);
    const again = await ranking.ranks(yieldToEventLoop);
    expect(order(dict, again).map(addressSortKey)).toEqual([...dict.values].map(addressSortKey).sort());
  });

  it('takes over the ranks of an identical dictionary instead of sorting again', async () => {
    const a = Dictionary.of(['B', 'C', 'A']);
    const first = new Ranking(a);
    await first.ranks(yieldToEventLoop);
    const b = Dictionary.of(['B', 'C', 'A', 'AA']);
    const second = new Ranking(b);
    second.adopt(first);
    expect(order(b, await second.ranks(yieldToEventLoop))).toEqual(['A', 'AA', 'B', 'C']);
    const different = new Ranking(Dictionary.of(['C', 'B']));
    different.adopt(first);
    expect(Array.from(await different.ranks(yieldToEventLoop))).toEqual([1, 0]);
  });
});
