/**
 * Whether a column's values (as 53-bit hashes, mapping/inspect.ts `uniqueColumns`) are all
 * distinct: a sort and a look at neighbours. At a million rows the sort takes 0.1–0.25 s, so a long
 * list is judged on the import's helper thread (mergeThread.ts), never on the engine's call path.
 */
import { NoHelperThread, onHelperThread } from './mergeThread';

/** Lists from this length are sorted on the helper thread. */
const HELPER_MIN = 50_000;

export function allDistinct(hashes: Float64Array): boolean {
  const sorted = hashes.slice().sort();
  for (let k = 1; k < sorted.length; k++) if (sorted[k] === sorted[k - 1]) return false;
  return true;
}

/** `allDistinct` of each list: long lists on the helper thread (here when it cannot start). */
export async function eachDistinct(lists: readonly Float64Array[]): Promise<boolean[]> {
  if (lists.every((l) => l.length < HELPER_MIN)) return lists.map(allDistinct);
  try {
    return await onHelperThread<boolean[]>({ task: 'distinct', lists: [...lists] });
  } catch (error) {
    if (!(error instanceof NoHelperThread)) throw error;
    return lists.map(allDistinct);
  }
}
