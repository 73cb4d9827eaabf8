/** Small statistics: the normal tail and Benjamini–Hochberg adjusted p-values. */

/**
 * erfc(x) for x ≥ 0 (Chebyshev fit, Numerical Recipes' erfcc: relative error < 1.2e-7 everywhere,
 * tails included, so tiny p-values keep their order for the FDR step).
 */
function erfc(x: number): number {
  const t = 1 / (1 + 0.5 * x);
  return (
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    )
  );
}

/** Two-sided p-value of a standard normal z. */
export const twoSidedP = (z: number): number =>
  Number.isFinite(z) ? Math.min(1, erfc(Math.abs(z) / Math.SQRT2)) : 1;

/**
 * Benjamini–Hochberg adjusted p-values (the FDR "q-values" of p.adjust(method = "BH")) over the
 * entries where `use` is 1 (all when omitted); NaN elsewhere.
 */
export function benjaminiHochberg(p: Float64Array, use?: Uint8Array): Float64Array {
  const idx: number[] = [];
  for (let i = 0; i < p.length; i++) if (!use || use[i]) idx.push(i);
  const m = idx.length;
  const order = Uint32Array.from(idx).sort((a, b) => (p[a] as number) - (p[b] as number));
  const out = new Float64Array(p.length).fill(Number.NaN);
  let running = 1;
  for (let k = m - 1; k >= 0; k--) {
    const i = order[k] as number;
    running = Math.min(running, ((p[i] as number) * m) / (k + 1));
    out[i] = running;
  }
  return out;
}
