/**
 * Pairs wanted cdids with the rows a query found (both ascending by cdid; a row's cdid first):
 * `hit(k, row)` for each wanted cdid k that was found. A range scan also meets rows outside the
 * filter (skipped); a wanted cdid the store no longer holds is simply not met.
 */
export function matchByCdid<T extends readonly unknown[]>(
  wanted: ArrayLike<number>,
  found: readonly T[],
  hit: (k: number, row: T) => void,
): void {
  let j = 0;
  for (let k = 0; k < wanted.length; k++) {
    const id = wanted[k] as number;
    while (j < found.length && ((found[j] as T)[0] as number) < id) j++;
    const row = found[j];
    if (row && row[0] === id) {
      hit(k, row);
      j++;
    }
  }
}
