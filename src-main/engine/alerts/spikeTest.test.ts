import { describe, expect, it } from 'vitest';
import { dayString } from '../../../src-shared/filters';
import { DAY_MS, type AlertIncident } from './conditions';
import { testRuleOn } from './ruleTest';
import { binomialUpperTail, spikeTest } from './spikeTest';

/** A small seeded PRNG (mulberry32) so the test is the same every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function poisson(rand: () => number, mean: number): number {
  // Knuth for small means, a sum of smaller draws for larger ones.
  if (mean > 30) return poisson(rand, mean / 2) + poisson(rand, mean / 2);
  const l = Math.exp(-mean);
  let k = 0;
  let p = 1;
  do {
    k++;
    p *= rand();
  } while (p > l);
  return k - 1;
}

describe('the binomial tail', () => {
  it('agrees with the sum of the terms', () => {
    const choose = (n: number, k: number): number => (k === 0 ? 1 : (choose(n - 1, k - 1) * n) / k);
    for (const [n, p] of [
      [10, 1 / 9],
      [40, 1 / 9],
      [60, 0.5],
    ] as const) {
      for (let k = 0; k <= n; k++) {
        let s = 0;
        for (let i = k; i <= n; i++) s += choose(n, i) * p ** i * (1 - p) ** (n - i);
        expect(binomialUpperTail(k, n, p)).toBeCloseTo(s, 10);
      }
    }
  });
});

describe('the spike test on stationary random data', () => {
  it('rejects at most α = 1 % of the time, at low, middling and high rates', () => {
    const rand = prng(42);
    const trials = 20_000;
    const rates: Record<string, number> = {};
    for (const perDay of [0.3, 2, 15]) {
      let rejected = 0;
      for (let t = 0; t < trials; t++) {
        const recent = poisson(rand, 7 * perDay);
        const baseline = poisson(rand, 56 * perDay);
        if (spikeTest(recent, baseline).significant) rejected++;
      }
      rates[perDay] = rejected / trials;
      expect(rejected / trials).toBeLessThanOrEqual(0.01);
    }
    console.log(JSON.stringify({ spikeFalsePositiveRate: rates, alpha: 0.01 }));
  });

  it('finds a real doubling of the rate most of the time', () => {
    const rand = prng(7);
    let found = 0;
    for (let t = 0; t < 2000; t++)
      if (spikeTest(poisson(rand, 7 * 4), poisson(rand, 56 * 2)).significant) found++;
    expect(found / 2000).toBeGreaterThan(0.5);
  });

  it('as a rule over a stationary archive, reports how often a week gets an alert', () => {
    // Two years of a constant 2 a day; the rule looks at every incident, once per week at most.
    const rand = prng(3);
    const start = Date.UTC(2023, 0, 2);
    const incidents: AlertIncident[] = [];
    let cdid = 1;
    for (let d = 0; d < 730; d++) {
      for (let k = poisson(rand, 2); k > 0; k--) {
        const utcMs = start + d * DAY_MS + Math.floor(rand() * DAY_MS);
        incidents.push({
          cdid: cdid++,
          type: 'Theft',
          lat: 0,
          lon: 0,
          utcMs,
          localDay: dayString(Math.floor(utcMs / DAY_MS)),
        });
      }
    }
    const from = start + 63 * DAY_MS;
    const r = testRuleOn({ condition: { kind: 'spike' } }, incidents, from, start + 730 * DAY_MS);
    const weeks = (730 - 63) / 7;
    console.log(
      JSON.stringify({ spikeAlertsPerWeek: r.fired / weeks, weeks: Math.round(weeks), looksPerWeek: 14 }),
    );
    // Each look is a test at α; the weekly rate of a rule that looks at every incident is bounded by
    // the looks, and in practice stays near α because consecutive looks share most of their data.
    expect(r.fired / weeks).toBeLessThanOrEqual(0.05);
  });
});
