/**
 * Pairs of points within a distance (metres), found once with a uniform grid of that cell size:
 * each point looks only at its own and the eight neighbouring cells. Used by the Knox test and by
 * repeat locations.
 */

export type Pairs = { size: number; i: Int32Array; j: Int32Array; d: Float64Array };

/** Every pair i < j with distance ≤ `maxD` (or < `maxD` when `strict`). */
export function closePairs(x: Float64Array, y: Float64Array, maxD: number, strict = false): Pairs {
  const n = x.length;
  let cap = 1024;
  let pi = new Int32Array(cap);
  let pj = new Int32Array(cap);
  let pd = new Float64Array(cap);
  let size = 0;
  const push = (a: number, b: number, d: number) => {
    if (size === cap) {
      cap *= 2;
      const ni = new Int32Array(cap);
      const nj = new Int32Array(cap);
      const nd = new Float64Array(cap);
      ni.set(pi);
      nj.set(pj);
      nd.set(pd);
      [pi, pj, pd] = [ni, nj, nd];
    }
    pi[size] = a;
    pj[size] = b;
    pd[size++] = d;
  };
  if (n < 2) return { size: 0, i: pi, j: pj, d: pd };
  const cell = maxD > 0 ? maxD : 1;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  for (let k = 0; k < n; k++) {
    minX = Math.min(minX, x[k] as number);
    minY = Math.min(minY, y[k] as number);
    maxX = Math.max(maxX, x[k] as number);
  }
  const cols = Math.floor((maxX - minX) / cell) + 1;
  // Points sorted by cell (counting sort on a hash of the cell), so a cell's points are contiguous.
  const key = new Float64Array(n);
  for (let k = 0; k < n; k++)
    key[k] =
      Math.floor(((y[k] as number) - minY) / cell) * cols + Math.floor(((x[k] as number) - minX) / cell);
  const order = new Int32Array(n);
  for (let k = 0; k < n; k++) order[k] = k;
  order.sort((a, b) => (key[a] as number) - (key[b] as number));
  const start = new Map<number, number>();
  for (let k = 0; k < n; k++) {
    const c = key[order[k] as number] as number;
    if (!start.has(c)) start.set(c, k);
  }
  const d2max = maxD * maxD;
  for (const [c, first] of start) {
    const cx = c % cols;
    const cy = (c - cx) / cols;
    for (let dy = 0; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        if (dy === 0 && dx < 0) continue; // each pair of cells once
        const nx = cx + dx;
        if (nx < 0 || nx >= cols) continue;
        const other = (cy + dy) * cols + nx;
        const from = start.get(other);
        if (from === undefined) continue;
        const same = other === c;
        for (let a = first; a < n && key[order[a] as number] === c; a++) {
          const ia = order[a] as number;
          const xa = x[ia] as number;
          const ya = y[ia] as number;
          for (let b = same ? a + 1 : from; b < n && key[order[b] as number] === other; b++) {
            const ib = order[b] as number;
            const ddx = (x[ib] as number) - xa;
            const ddy = (y[ib] as number) - ya;
            const d2 = ddx * ddx + ddy * ddy;
            if (strict ? d2 < d2max : d2 <= d2max) {
              if (ia < ib) push(ia, ib, Math.sqrt(d2));
              else push(ib, ia, Math.sqrt(d2));
            }
          }
        }
      }
  }
  return { size, i: pi, j: pj, d: pd };
}
