/**
 * The filter's `cdids` (an alert's incidents, opened on the map) as a row mask over the snapshot,
 * combined with the text mask when both are set: the match set's one pass tests it like the text.
 */
import type { Snapshot } from './snapshot';

export function cdidMask(snapshot: Snapshot, cdids: readonly number[], and: Uint8Array | null): Uint8Array {
  const mask = new Uint8Array(Math.max(1, snapshot.size));
  for (const cdid of cdids) {
    const row = snapshot.rowOf(cdid);
    if (row >= 0 && (and === null || and[row] === 1)) mask[row] = 1;
  }
  return mask;
}
