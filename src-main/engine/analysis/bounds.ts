/**
 * What an analysis may produce (issue 25, item 19: a 4 m Gi* cell over 879 incidents blocked the
 * engine for 12 s and took 2 GB). Each bound is checked from the parameters before the work and a
 * setting beyond it is refused (`AnalysisTooLarge`, a refusal: `bad_input` with its words) naming
 * the bound and the nearest setting that fits: a grid (Gi*, kernel density) of at most
 * MAX_GRID_CELLS cells, a Knox test of at most MAX_CLOSE_PAIRS close pairs and MAX_PERMUTATIONS
 * permutations, an answer of at most MAX_RESULT_BYTES.
 */
import { AnalysisRefused } from './points';

export const MAX_GRID_CELLS = 2_000_000;
export const MAX_CLOSE_PAIRS = 20_000_000;
export const MAX_PERMUTATIONS = 9_999;
/** The pairs a significant Knox cell lists (its first in the close pairs' order); `observed` counts them all. */
export const MAX_LISTED_PAIRS = 1_000;
/** 50 MB: the largest answer an analysis builds (the GeoJSON of a grid, a raster as base64). */
export const MAX_RESULT_BYTES = 50_000_000;

/** A setting beyond a bound: the words name the bound and the nearest setting that fits. */
export class AnalysisTooLarge extends AnalysisRefused {}

export const count = (n: number): string => Math.round(n).toLocaleString('en-US');
export const megabytes = (bytes: number): string => `${count(Math.ceil(bytes / 1_000_000))} MB`;
/** A length as the user reads it: whole units from 10 up, else to two significant digits. */
export const length = (v: number): string => (v >= 10 ? count(v) : String(Number(v.toPrecision(2))));

/** The power of ten of the second significant digit of v. */
const step = (v: number): number => 10 ** (Math.floor(Math.log10(v)) - 1);

/** v rounded up to two significant digits (24.3 → 25, 1,234 → 1,300). */
export function niceUp(v: number): number {
  const s = step(v);
  return Number((Math.ceil(v / s - 1e-9) * s).toPrecision(2));
}

/** v rounded down to two significant digits (1,234 → 1,200, 62.4 → 62). */
export function niceDown(v: number): number {
  const s = step(v);
  return Number((Math.floor(v / s + 1e-9) * s).toPrecision(2));
}

/**
 * The smallest size from `from` up for which `fits` holds, rounded up to two significant digits
 * (and checked again there). `fits` is monotone: a larger size never fits worse.
 */
export function smallestFitting(fits: (size: number) => boolean, from: number): number {
  let lo = from;
  let hi = from * 2;
  while (!fits(hi)) {
    lo = hi;
    hi *= 2;
  }
  for (let k = 0; k < 60 && hi / lo > 1.001; k++) {
    const mid = Math.sqrt(lo * hi);
    if (fits(mid)) hi = mid;
    else lo = mid;
  }
  let size = niceUp(hi);
  for (let k = 0; k < 100 && !fits(size); k++) size = niceUp(size * 1.01);
  return size;
}
