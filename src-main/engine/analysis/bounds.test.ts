/**
 * Issue 25, item 19: a parameter is bounded by what it produces and refused before the work,
 * naming the bound and the nearest setting that fits — a grid (Gi*, kernel density) of at most
 * 2,000,000 cells, a Knox test of at most 20,000,000 close pairs and 9,999 permutations, an answer
 * of at most 50 MB. (A 4 m Gi* cell over 879 incidents had blocked the engine for 12 s and 2 GB.)
 */
import { describe, expect, it } from 'vitest';
import { AnalysisTooLarge, MAX_CLOSE_PAIRS, MAX_RESULT_BYTES, niceDown, niceUp } from './bounds';
import { hotSpotsOf } from './getisOrd';
import { hotSpotGeoJson } from './hotSpotExport';
import { kdeOf } from './kde';
import { kdeGeoJson } from './kdeExport';
import { knoxOf } from './knox';
import { countClosePairs } from './pairs';
import { repeatsWithin } from './repeatLocations';
import { TEST_UTM, toLatLon, uniformPoints } from './testPoints';

/** What `work` throws, and how long it took to throw it. */
function refusal(work: () => unknown): { error: unknown; ms: number } {
  const started = performance.now();
  try {
    work();
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
  throw new Error('the analysis ran instead of being refused');
}

/** The number in "… that fits is N m." */
const fitOf = (message: string, unit = 'm'): number => {
  const m = new RegExp(`fits is ([\\d,.]+) ${unit}\\.`).exec(message);
  if (!m) throw new Error(`no setting that fits in: ${message}`);
  return Number((m[1] as string).replace(/,/g, ''));
};

// 879 incidents spread over 8 km: a 4 m grid over them has 4,000,000 cells.
const spread = uniformPoints(879, 8000, 25);

describe('hot spots: at most 2,000,000 cells and a 50 MB answer', () => {
  it('refuses a 4 m cell at once, naming the bound and the smallest cell that fits, which then runs', () => {
    const { error, ms } = refusal(() => hotSpotsOf(spread.x, spread.y, TEST_UTM, { cellSizeM: 4 }));
    expect(error).toBeInstanceOf(AnalysisTooLarge);
    const message = (error as Error).message;
    expect(message).toContain('4 m cell');
    expect(message).toContain('more than the 2,000,000 cells a grid may hold');
    expect(message).toContain('more than the 50 MB an answer may take');
    expect(ms).toBeLessThan(3000); // refused before the work: the old code took 11–12 s here

    const fit = fitOf(message);
    const result = hotSpotsOf(spread.x, spread.y, TEST_UTM, { cellSizeM: fit });
    expect(result.grid.size).toBeLessThanOrEqual(2_000_000);
    expect(JSON.stringify(hotSpotGeoJson(result)).length).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    // The smallest: a tenth less is refused.
    expect(() => hotSpotsOf(spread.x, spread.y, TEST_UTM, { cellSizeM: fit * 0.9 })).toThrow(
      AnalysisTooLarge,
    );
  });

  it('still runs the default and an ordinary cell', () => {
    expect(hotSpotsOf(spread.x, spread.y, TEST_UTM).parameters.cells).toBeGreaterThan(1000);
    expect(
      hotSpotsOf(spread.x, spread.y, TEST_UTM, { cellSizeM: 200, grid: 'hexagon' }).grid.size,
    ).toBeLessThan(3000);
  });
});

describe('kernel density: at most 2,000,000 cells and a 50 MB answer', () => {
  it('refuses a 2 m cell at once, naming the grid bound, and the smallest cell that fits runs', () => {
    const { error, ms } = refusal(() => kdeOf(spread.x, spread.y, TEST_UTM, { cellSizeM: 2, radiusM: 300 }));
    expect(error).toBeInstanceOf(AnalysisTooLarge);
    const message = (error as Error).message;
    expect(message).toContain('more than the 2,000,000 cells a grid may hold');
    expect(ms).toBeLessThan(3000); // refused before the work: the old code took 11–12 s here
    const fit = fitOf(message);
    expect(
      kdeOf(spread.x, spread.y, TEST_UTM, { cellSizeM: fit, radiusM: 300 }).grid.size,
    ).toBeLessThanOrEqual(2_000_000);
    expect(() => kdeOf(spread.x, spread.y, TEST_UTM, { cellSizeM: fit * 0.9, radiusM: 300 })).toThrow(
      AnalysisTooLarge,
    );
  });

  it('bounds the GeoJSON answer by its 50 MB: a cell the raster takes is refused for GeoJSON', () => {
    const options = { cellSizeM: 8, radiusM: 300 };
    expect(kdeOf(spread.x, spread.y, TEST_UTM, options).grid.size).toBeGreaterThan(990_000);
    const { error } = refusal(() => kdeOf(spread.x, spread.y, TEST_UTM, { ...options, format: 'geojson' }));
    const message = (error as Error).message;
    expect(message).toContain('more than the 50 MB an answer may take');
    expect(message).not.toContain('2,000,000');
    const fit = fitOf(message);
    const result = kdeOf(spread.x, spread.y, TEST_UTM, { ...options, cellSizeM: fit, format: 'geojson' });
    expect(JSON.stringify(kdeGeoJson(result)).length).toBeLessThanOrEqual(MAX_RESULT_BYTES);
  });
});

describe('near repeat: at most 20,000,000 close pairs and 9,999 permutations', () => {
  const day = new Int32Array(879).map((_, i) => i % 60);
  const bands = { space: [0, 100, 200], spaceUnit: 'm' as const, time: [0, 7, 14] };

  it('refuses 10,000 permutations, naming 9,999', () => {
    expect(() => knoxOf(spread.x, spread.y, day, TEST_UTM, { ...bands, iterations: 10_000 })).toThrow(
      /at most 9,999 permutations; 10,000 were asked/,
    );
    expect(
      knoxOf(spread.x, spread.y, day, TEST_UTM, { ...bands, iterations: 19 }).parameters.iterations,
    ).toBe(19);
  });

  it('refuses a distance band holding more than 20,000,000 pairs before building them, naming the largest that fits', () => {
    // 10,000 incidents in a 1 km square: within 2 km every one of the 49,995,000 pairs is close.
    const dense = uniformPoints(10_000, 1000, 7);
    const days = new Int32Array(10_000).map((_, i) => i % 90);
    const { error } = refusal(() =>
      knoxOf(dense.x, dense.y, days, TEST_UTM, {
        space: [0, 1000 / 0.3048, 2000 / 0.3048],
        spaceUnit: 'ft',
        time: [0, 7, 14],
      }),
    );
    expect(error).toBeInstanceOf(AnalysisTooLarge);
    const message = (error as Error).message;
    expect(message).toContain('6,562 ft');
    expect(message).toContain('more than 20,000,000 pairs within it');
    const fitFt = fitOf(message, 'ft');
    const fitM = fitFt * 0.3048;
    expect(countClosePairs(dense.x, dense.y, fitM, MAX_CLOSE_PAIRS).count).toBeLessThanOrEqual(
      MAX_CLOSE_PAIRS,
    );
    // The largest to two significant digits: 15 % more is over the bound.
    expect(countClosePairs(dense.x, dense.y, fitM * 1.15, MAX_CLOSE_PAIRS).count).toBeGreaterThan(
      MAX_CLOSE_PAIRS,
    );
  }, 60_000);
});

describe('repeat locations: at most 20,000,000 close pairs', () => {
  it('refuses a distance making more close pairs, naming the largest that fits', () => {
    const dense = uniformPoints(10_000, 1000, 8);
    const { lat, lon } = toLatLon(dense);
    const days = new Int32Array(10_000);
    const { error } = refusal(() => repeatsWithin(lat, lon, days, 2000));
    expect(error).toBeInstanceOf(AnalysisTooLarge);
    const message = (error as Error).message;
    expect(message).toContain('more than 20,000,000 pairs closer than that');
    const fit = fitOf(message);
    expect(countClosePairs(dense.x, dense.y, fit, MAX_CLOSE_PAIRS, true).count).toBeLessThanOrEqual(
      MAX_CLOSE_PAIRS,
    );
    expect(repeatsWithin(lat, lon, days, 50).length).toBeGreaterThan(0);
  }, 60_000);
});

describe('rounding a setting that fits', () => {
  it('goes up or down to two significant digits', () => {
    expect([niceUp(24.3), niceUp(1234), niceUp(25), niceUp(0.512)]).toEqual([25, 1300, 25, 0.52]);
    expect([niceDown(1234), niceDown(62.4), niceDown(0.519)]).toEqual([1200, 62, 0.51]);
  });
});
