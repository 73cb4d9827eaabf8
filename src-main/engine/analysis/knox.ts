/**
 * Near repeat: the Knox test. Pairs of incidents are counted in spatial bands (a, b] (metres or
 * feet) × temporal bands (a, b] of days, the day difference being |local_dayᵢ − local_dayⱼ|; the
 * first band of each also holds its lower edge (same place, same day). The expected counts come
 * from Monte Carlo permutations of the days over the incidents (seeded), the close pairs being
 * found once: ratio = observed / mean of the simulations, p = (1 + #simulations ≥ observed) /
 * (iterations + 1).
 */
import type { UtmProjection } from '../../../src-shared/geo';
import {
  AnalysisTooLarge,
  count,
  length,
  MAX_CLOSE_PAIRS,
  MAX_LISTED_PAIRS,
  MAX_PERMUTATIONS,
  niceDown,
} from './bounds';
import { closePairs, countClosePairs, largestDistanceWithin, type Pairs } from './pairs';
import { project, requireEnough } from './points';
import type { Progress } from './progress';
import { seededRandom, shuffleInPlace } from './random';

export const FEET = 0.3048;
export const DEFAULT_ITERATIONS = 99;
export const DEFAULT_SEED = 1;
/** A cell is marked significant below this p. */
export const KNOX_ALPHA = 0.05;

export type KnoxBands = {
  /** Band edges, ascending: [0, 400, 800] means (0, 400] (with 0 itself) and (400, 800]. */
  space: readonly number[];
  spaceUnit: 'm' | 'ft';
  /** Day edges, ascending: [0, 7, 14] means 0–7 days (same day included) and 8–14 days. */
  time: readonly number[];
};

export type KnoxOptions = KnoxBands & {
  iterations?: number;
  seed?: number;
  /** What the incidents are, for the summary ("burglaries"); "incidents" when not given. */
  subject?: string;
  onProgress?: Progress;
  signal?: AbortSignal;
};

export type KnoxCell = {
  space: [number, number];
  time: [number, number];
  observed: number;
  expected: number;
  ratio: number | null;
  p: number;
  significant: boolean;
  /**
   * A significant cell's pairs (at most MAX_LISTED_PAIRS; `observed` counts them all): the two
   * incidents (indices into the columns given), metres apart and whole days apart.
   */
  pairs?: KnoxPair[];
};

export type KnoxPair = { i: number; j: number; distanceM: number; days: number };

export type KnoxResult = {
  cells: KnoxCell[];
  summary: string[];
  parameters: {
    space_bands: number[];
    space_unit: 'm' | 'ft';
    time_bands_days: number[];
    iterations: number;
    seed: number;
    utm_epsg: number;
    incidents: number;
    close_pairs: number;
    alpha: number;
  };
};

function checkEdges(edges: readonly number[], what: string): void {
  if (edges.length < 2) throw new RangeError(`Give at least two ${what} band edges (for example 0,400,800).`);
  for (let k = 0; k < edges.length; k++)
    if (!((edges[k] as number) >= 0) || (k > 0 && !((edges[k] as number) > (edges[k - 1] as number))))
      throw new RangeError(`The ${what} band edges must be ascending numbers from 0 up.`);
}

/** The space band of each close pair (-1 outside every band). */
function spaceBandOf(pairs: Pairs, edgesM: readonly number[]): Int8Array {
  const band = new Int8Array(pairs.size).fill(-1);
  const last = edgesM.length - 1;
  for (let k = 0; k < pairs.size; k++) {
    const d = pairs.d[k] as number;
    if (d < (edgesM[0] as number)) continue;
    for (let b = 0; b < last; b++)
      if (d <= (edgesM[b + 1] as number)) {
        band[k] = b;
        break;
      }
  }
  return band;
}

/** The time band of each whole day difference 0…max (-1 outside every band). */
function timeBandTable(edges: readonly number[]): Int8Array {
  const max = Math.floor(edges[edges.length - 1] as number);
  const table = new Int8Array(max + 1).fill(-1);
  for (let dt = 0; dt <= max; dt++) {
    if (dt < (edges[0] as number)) continue;
    for (let b = 0; b < edges.length - 1; b++)
      if (dt <= (edges[b + 1] as number)) {
        table[dt] = b;
        break;
      }
  }
  return table;
}

/** Adds the pairs' counts per (space band · T + time band) for one assignment of days. */
function tally(
  pairs: Pairs,
  sBand: Int8Array,
  tTable: Int8Array,
  day: Int32Array,
  T: number,
  into: Float64Array,
): void {
  const maxDt = tTable.length - 1;
  const { i, j } = pairs;
  for (let k = 0; k < pairs.size; k++) {
    const s = sBand[k] as number;
    if (s < 0) continue;
    const dt = Math.abs((day[i[k] as number] as number) - (day[j[k] as number] as number));
    if (dt > maxDt) continue;
    const t = tTable[dt] as number;
    if (t >= 0) into[s * T + t]!++;
  }
}

const toMetres = (bands: KnoxBands) => bands.space.map((e) => (bands.spaceUnit === 'ft' ? e * FEET : e));

/** Observed pair counts per band, [space][time] (no permutations; any number of incidents). */
export function knoxCounts(x: Float64Array, y: Float64Array, day: Int32Array, bands: KnoxBands): number[][] {
  checkEdges(bands.space, 'space');
  checkEdges(bands.time, 'time');
  const edgesM = toMetres(bands);
  const pairs = closePairs(x, y, edgesM[edgesM.length - 1] as number);
  const S = bands.space.length - 1;
  const T = bands.time.length - 1;
  const counts = new Float64Array(S * T);
  tally(pairs, spaceBandOf(pairs, edgesM), timeBandTable(bands.time), day, T, counts);
  return Array.from({ length: S }, (_, s) => Array.from(counts.subarray(s * T, s * T + T)));
}

/** The Knox test of incidents in metres with their local days. */
export function knoxOf(
  x: Float64Array,
  y: Float64Array,
  day: Int32Array,
  utm: UtmProjection,
  options: KnoxOptions,
): KnoxResult {
  requireEnough(x.length, 'The near-repeat test');
  checkEdges(options.space, 'space');
  checkEdges(options.time, 'time');
  const iterations = options.iterations ?? DEFAULT_ITERATIONS;
  if (!(Number.isInteger(iterations) && iterations >= 1))
    throw new RangeError('Iterations must be a whole number from 1 up.');
  if (iterations > MAX_PERMUTATIONS)
    throw new AnalysisTooLarge(
      `The near-repeat test takes at most ${count(MAX_PERMUTATIONS)} permutations; ${count(iterations)} were asked. Use ${count(MAX_PERMUTATIONS)} or fewer.`,
    );
  const seed = options.seed ?? DEFAULT_SEED;
  const edgesM = toMetres(options);
  const maxM = edgesM[edgesM.length - 1] as number;
  // Counted before they are kept: past MAX_CLOSE_PAIRS the test is refused before any is built.
  const counted = countClosePairs(x, y, maxM, MAX_CLOSE_PAIRS);
  if (counted.count > MAX_CLOSE_PAIRS) refuseDistance(x, y, maxM, options);
  const pairs = closePairs(x, y, maxM, false, counted.count);
  const sBand = spaceBandOf(pairs, edgesM);
  const tTable = timeBandTable(options.time);
  const S = options.space.length - 1;
  const T = options.time.length - 1;
  const observed = new Float64Array(S * T);
  tally(pairs, sBand, tTable, day, T, observed);
  const simSum = new Float64Array(S * T);
  const atLeast = new Float64Array(S * T);
  const sim = new Float64Array(S * T);
  const days = Int32Array.from(day);
  const random = seededRandom(seed);
  for (let it = 0; it < iterations; it++) {
    if (options.signal?.aborted) throw options.signal.reason ?? new Error('Cancelled');
    shuffleInPlace(days, random);
    sim.fill(0);
    tally(pairs, sBand, tTable, days, T, sim);
    for (let c = 0; c < sim.length; c++) {
      simSum[c]! += sim[c] as number;
      if ((sim[c] as number) >= (observed[c] as number)) atLeast[c]!++;
    }
    options.onProgress?.((it + 1) / iterations);
  }
  const cells: KnoxCell[] = [];
  for (let s = 0; s < S; s++)
    for (let t = 0; t < T; t++) {
      const c = s * T + t;
      const expected = (simSum[c] as number) / iterations;
      const p = (1 + (atLeast[c] as number)) / (iterations + 1);
      cells.push({
        space: [options.space[s] as number, options.space[s + 1] as number],
        time: [options.time[t] as number, options.time[t + 1] as number],
        observed: observed[c] as number,
        expected: Math.round(expected * 1000) / 1000,
        ratio: expected > 0 ? Math.round(((observed[c] as number) / expected) * 100) / 100 : null,
        p: Math.round(p * 1e6) / 1e6,
        significant: p < KNOX_ALPHA,
      });
    }
  listPairs(cells, pairs, sBand, tTable, day, T);
  return {
    cells,
    summary: knoxSummary(cells, options.spaceUnit, options.subject ?? 'incidents', iterations),
    parameters: {
      space_bands: [...options.space],
      space_unit: options.spaceUnit,
      time_bands_days: [...options.time],
      iterations,
      seed,
      utm_epsg: utm.epsg,
      incidents: x.length,
      close_pairs: pairs.size,
      alpha: KNOX_ALPHA,
    },
  };
}

/** Each significant cell's pairs (the first MAX_LISTED_PAIRS), so the analyst can read them. */
function listPairs(
  cells: KnoxCell[],
  pairs: Pairs,
  sBand: Int8Array,
  tTable: Int8Array,
  day: Int32Array,
  T: number,
): void {
  if (!cells.some((c) => c.significant)) return;
  const maxDt = tTable.length - 1;
  for (const c of cells) if (c.significant) c.pairs = [];
  for (let k = 0; k < pairs.size; k++) {
    const s = sBand[k] as number;
    if (s < 0) continue;
    const i = pairs.i[k] as number;
    const j = pairs.j[k] as number;
    const dt = Math.abs((day[i] as number) - (day[j] as number));
    if (dt > maxDt || (tTable[dt] as number) < 0) continue;
    const list = cells[s * T + (tTable[dt] as number)]?.pairs;
    if (list && list.length < MAX_LISTED_PAIRS)
      list.push({ i, j, distanceM: Math.round((pairs.d[k] as number) * 10) / 10, days: dt });
  }
}

/** Too many close pairs within the largest band: the words name the bound and the largest band that fits. */
function refuseDistance(x: Float64Array, y: Float64Array, maxM: number, options: KnoxOptions): never {
  const unit = options.spaceUnit;
  const perUnit = unit === 'ft' ? FEET : 1;
  const fitM = largestDistanceWithin(x, y, maxM, MAX_CLOSE_PAIRS);
  // Rounded down in the user's unit (and a hair below, so the rounding never crosses the bound).
  const fit = fitM > 0 ? niceDown((fitM / perUnit) * (1 - 1e-9)) : 0;
  const largest = options.space[options.space.length - 1] as number;
  throw new AnalysisTooLarge(
    `The near-repeat test cannot use a largest distance band of ${length(largest)} ${unit} here: these ${count(x.length)} incidents make more than ${count(MAX_CLOSE_PAIRS)} pairs within it, the most close pairs the test takes. ` +
      (fit > 0
        ? `The largest distance that fits is ${length(fit)} ${unit}.`
        : `Even incidents at the same place make more: narrow the filters.`),
  );
}

const spaceWords = ([a, b]: [number, number], unit: string, first: boolean) =>
  first ? `within ${b} ${unit} of one another` : `${a}–${b} ${unit} apart`;
const timeWords = ([a, b]: [number, number], first: boolean) =>
  first ? `within ${b} day${b === 1 ? '' : 's'}` : `${Math.floor(a) + 1}–${b} days apart`;

/** Plain sentences for the significant cells above chance, nearest first; one line when there are none. */
export function knoxSummary(
  cells: KnoxCell[],
  unit: 'm' | 'ft',
  subject: string,
  iterations: number,
): string[] {
  const first = cells[0];
  const lines = cells
    .filter((c) => c.significant && c.ratio !== null && c.ratio > 1)
    .map((c) => {
      const s = spaceWords(c.space, unit, c.space[0] === first?.space[0]);
      const t = timeWords(c.time, c.time[0] === first?.time[0]);
      const subjectCap = subject.charAt(0).toUpperCase() + subject.slice(1);
      return `${subjectCap} ${s} are ${(c.ratio as number).toFixed(1)}× as likely as chance ${t} (p = ${c.p}).`;
    });
  if (lines.length > 0) return lines;
  return [
    `No near-repeat pattern: ${subject} close in space are not significantly more likely than chance to be close in time (p < ${KNOX_ALPHA}, ${iterations} permutations).`,
  ];
}

/** The Knox test of incidents in lat/lon, in the UTM zone of their centroid. */
export function nearRepeat(
  lat: Float64Array,
  lon: Float64Array,
  day: Int32Array,
  options: KnoxOptions,
): KnoxResult {
  requireEnough(lat.length, 'The near-repeat test');
  const { utm, x, y } = project(lat, lon);
  return knoxOf(x, y, day, utm, options);
}
