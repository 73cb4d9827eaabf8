/**
 * The filter's `focus` (an analysis cell or place opened from Analysis, issue 26 item 5) as a row
 * mask over the snapshot, combined with the text (and cdid) mask when set: the match set's one
 * pass tests it like the text, so the focus narrows the area and every other filter, never
 * replaces them. A shape (a cell, a circle) or a place's incidents by id.
 */
import type { FocusFilter } from '../../../src-shared/filters';
import { regionOf } from '../../../src-shared/geo';
import { cdidMask } from './cdidMask';
import type { Snapshot } from './snapshot';

export function focusMask(snapshot: Snapshot, focus: FocusFilter, and: Uint8Array | null): Uint8Array {
  if ('cdids' in focus) return cdidMask(snapshot, focus.cdids, and);
  const region = regionOf(
    'circle' in focus ? { kind: 'circle', ...focus.circle } : { kind: 'polygon', points: focus.polygon },
  );
  const { minLat, maxLat, minLon, maxLon } = region.box;
  const mask = new Uint8Array(Math.max(1, snapshot.size));
  const { lat, lon } = snapshot;
  for (let row = 0; row < snapshot.size; row++) {
    if (and !== null && and[row] !== 1) continue;
    const a = lat[row] as number;
    const o = lon[row] as number;
    if (a < minLat || a > maxLat || o < minLon || o > maxLon) continue;
    if (region.contains(a, o)) mask[row] = 1;
  }
  return mask;
}
