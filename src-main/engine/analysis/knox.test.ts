import { describe, expect, it } from 'vitest';
import { MAX_LISTED_PAIRS } from './bounds';
import { FEET, knoxCounts, knoxOf, nearRepeat } from './knox';
import { AnalysisRefused } from './points';
import { seededRandom, shuffleInPlace } from './random';
import { concat, TEST_UTM, toLatLon, uniformPoints } from './testPoints';

// Ten incidents placed by hand (metres), bands (0, 100] (0 included), (100, 200] × 0–7, 8–14 days.
const X = Float64Array.of(0, 50, 0, 0, 1000, 1150, 1000, 5000, 5000, 5000);
const Y = Float64Array.of(0, 0, 100, 0, 0, 0, 200, 5000, 5201, 5000.5);
const DAY = Int32Array.of(0, 3, 10, 0, 0, 20, 14, 5, 5, 12);
const BANDS = { space: [0, 100, 200], spaceUnit: 'm' as const, time: [0, 7, 14] };

describe('Knox counts by hand on 10 incidents', () => {
  it('counts pairs in half-open bands, the first holding same place and same day', () => {
    // 0–100 m, 0–7 d: 0–1 (50 m, 3 d), 0–3 (0 m, same day), 1–3 (50 m, 3 d), 7–9 (0.5 m, 7 d).
    // 0–100 m, 8–14 d: 0–2 (100 m exactly, 10 d), 2–3 (100 m, 10 d).
    // 100–200 m, 0–7 d: 1–2 (111.8 m, 7 d exactly).  100–200 m, 8–14 d: 4–6 (200 m exactly, 14 d).
    // Not counted: 4–5 (150 m but 20 days), 7–8 (201 m), 8–9 (200.5 m).
    expect(knoxCounts(X, Y, DAY, BANDS)).toEqual([
      [4, 2],
      [1, 1],
    ]);
  });

  it('takes bands in feet', () => {
    const ft = { ...BANDS, space: [0, 100 / FEET, 200 / FEET], spaceUnit: 'ft' as const };
    expect(knoxCounts(X, Y, DAY, ft)).toEqual(knoxCounts(X, Y, DAY, BANDS));
  });

  it('refuses bands that are not ascending, and fewer than 30 incidents for the test itself', () => {
    expect(() => knoxCounts(X, Y, DAY, { ...BANDS, time: [7, 0] })).toThrow(/ascending/);
    expect(() => knoxOf(X, Y, DAY, TEST_UTM, BANDS)).toThrow(AnalysisRefused);
  });
});

/** 400 incidents over a year; 150 of them followed by another within 50 m and 1–5 days. */
function plantedNearRepeats() {
  const base = uniformPoints(400, 5000, 21);
  const random = seededRandom(22);
  const day = new Int32Array(550);
  for (let i = 0; i < 400; i++) day[i] = Math.floor(random() * 365);
  const x = new Float64Array(150);
  const y = new Float64Array(150);
  for (let k = 0; k < 150; k++) {
    const of = Math.floor(random() * 400);
    const r = 50 * Math.sqrt(random());
    const a = 2 * Math.PI * random();
    x[k] = base.x[of]! + r * Math.cos(a);
    y[k] = base.y[of]! + r * Math.sin(a);
    day[400 + k] = day[of]! + 1 + Math.floor(random() * 5);
  }
  return { ...concat(base, { x, y }), day };
}

describe('Knox test with permutations', () => {
  const opts = { ...BANDS, iterations: 99, seed: 7, subject: 'burglaries' };

  it('finds a planted near-repeat pattern significant, and says so plainly', () => {
    const p = plantedNearRepeats();
    const r = knoxOf(p.x, p.y, p.day, TEST_UTM, opts);
    const near = r.cells[0]!;
    expect(near.significant).toBe(true);
    expect(near.p).toBe(0.01); // no simulation reached the observed count: 1 / (99 + 1)
    expect(near.ratio).toBeGreaterThan(3);
    expect(near.observed / near.expected).toBeCloseTo(near.ratio!, 1);
    expect(r.summary[0]).toMatch(
      /^Burglaries within 100 m of one another are \d+\.\d× as likely as chance within 7 days/,
    );
    expect(r.parameters).toMatchObject({
      iterations: 99,
      seed: 7,
      space_unit: 'm',
      utm_epsg: 32616,
      incidents: 550,
    });
  });

  it('lists a significant cell’s pairs — both incidents, metres and days apart — and none for the others', () => {
    const p = plantedNearRepeats();
    const r = knoxOf(p.x, p.y, p.day, TEST_UTM, opts);
    const near = r.cells[0]!;
    expect(near.pairs).toHaveLength(Math.min(near.observed, MAX_LISTED_PAIRS));
    for (const pair of near.pairs!) {
      const d = Math.hypot(p.x[pair.i]! - p.x[pair.j]!, p.y[pair.i]! - p.y[pair.j]!);
      expect(pair.distanceM).toBeCloseTo(d, 1);
      expect(d).toBeLessThanOrEqual(100);
      expect(pair.days).toBe(Math.abs(p.day[pair.i]! - p.day[pair.j]!));
      expect(pair.days).toBeLessThanOrEqual(7);
    }
    for (const c of r.cells.filter((x) => !x.significant)) expect(c.pairs).toBeUndefined();
  });

  it('lists at most MAX_LISTED_PAIRS pairs of a cell, counting them all', () => {
    // 60 incidents at one corner on one day (1,770 pairs) among 400 spread over a year.
    const base = uniformPoints(400, 5000, 31);
    const random = seededRandom(32);
    const day = new Int32Array(460);
    for (let i = 0; i < 400; i++) day[i] = Math.floor(random() * 365);
    const pile = { x: new Float64Array(60).fill(10), y: new Float64Array(60).fill(10) };
    const p = { ...concat(base, pile), day };
    const near = knoxOf(p.x, p.y, p.day, TEST_UTM, opts).cells[0]!;
    expect(near.significant).toBe(true);
    expect(near.observed).toBeGreaterThanOrEqual(1770);
    expect(near.pairs).toHaveLength(MAX_LISTED_PAIRS);
  });

  it('finds nothing once the same dates are shuffled over the incidents', () => {
    const p = plantedNearRepeats();
    shuffleInPlace(p.day, seededRandom(99));
    const r = knoxOf(p.x, p.y, p.day, TEST_UTM, opts);
    expect(r.cells[0]!.significant).toBe(false);
    expect(r.summary[0]).toMatch(/^No near-repeat pattern/);
  });

  it('repeats exactly for a seed; p = (1 + #simulations ≥ observed) / (iterations + 1)', () => {
    const p = plantedNearRepeats();
    const a = knoxOf(p.x, p.y, p.day, TEST_UTM, { ...opts, iterations: 9 });
    const b = knoxOf(p.x, p.y, p.day, TEST_UTM, { ...opts, iterations: 9 });
    expect(a).toEqual(b);
    for (const c of a.cells) expect(Math.round(c.p * 10)).toBeCloseTo(c.p * 10, 9);
    const c = knoxOf(p.x, p.y, p.day, TEST_UTM, { ...opts, iterations: 9, seed: 8 });
    expect(c.cells.map((x) => x.expected)).not.toEqual(a.cells.map((x) => x.expected));
  });

  it('runs on lat/lon in the zone of the centroid, and stops when cancelled', () => {
    const p = plantedNearRepeats();
    const { lat, lon } = toLatLon(p);
    const r = nearRepeat(lat, lon, p.day, { ...opts, iterations: 19 });
    expect(r.cells[0]!.observed).toBe(
      knoxOf(p.x, p.y, p.day, TEST_UTM, { ...opts, iterations: 1 }).cells[0]!.observed,
    );
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    expect(() => nearRepeat(lat, lon, p.day, { ...opts, signal: controller.signal })).toThrow('stopped');
  });
});
