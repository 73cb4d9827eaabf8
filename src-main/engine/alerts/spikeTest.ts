/**
 * The spike test: the last 7 days (x incidents) against the 8 weeks before (baseline b). Under a
 * constant rate each of the x + b incidents falls in the recent week with probability 7 / 63, so
 * x | x + b ~ Bin(x + b, 1/9); the one-sided p-value is P(X ≥ x). Exact (no normal approximation),
 * hence conservative for small counts: its false positive rate never exceeds α.
 */
import { SPIKE } from '../../../src-shared/alerts';

/** log Γ(z) for z > 0 (Lanczos, g = 7, n = 9; ~15 significant digits). */
function logGamma(z: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
  const x = z - 1;
  let a = c[0] as number;
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += (c[i] as number) / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

const logPmf = (k: number, n: number, p: number): number =>
  logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1) + k * Math.log(p) + (n - k) * Math.log1p(-p);

/** P(X ≥ k) for X ~ Bin(n, p). Sums away from the mean, so no term underflows before it matters. */
export function binomialUpperTail(k: number, n: number, p: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  if (p <= 0) return 0;
  if (p >= 1) return 1;
  const ratio = p / (1 - p);
  if (k > n * p) {
    // Upper tail from k upwards: terms fall.
    let term = Math.exp(logPmf(k, n, p));
    let sum = term;
    for (let i = k; i < n && term > sum * 1e-17; i++) {
      term *= ((n - i) / (i + 1)) * ratio;
      sum += term;
    }
    return Math.min(1, sum);
  }
  // 1 − P(X ≤ k − 1), the lower tail summed from k − 1 downwards: terms fall.
  let term = Math.exp(logPmf(k - 1, n, p));
  let sum = term;
  for (let i = k - 1; i > 0 && term > sum * 1e-17; i--) {
    term *= i / (n - i + 1) / ratio;
    sum += term;
  }
  return Math.max(0, 1 - sum);
}

export type SpikeResult = { recent: number; baseline: number; p: number; significant: boolean };

/** The conditional binomial test of `recent` against `baseline` at the rule's fixed α. */
export function spikeTest(recent: number, baseline: number): SpikeResult {
  const p = binomialUpperTail(recent, recent + baseline, SPIKE.share);
  return { recent, baseline, p, significant: recent > 0 && p <= SPIKE.alpha };
}
