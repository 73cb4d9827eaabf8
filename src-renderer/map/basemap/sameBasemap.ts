/** Whether two basemap answers draw the same: no Leaflet here, so it is tested without a page. */
import type { BasemapInfo } from '../../../src-shared/basemap';

/** Same source, same look: everything but the online cache's counters. */
export function sameBasemap(a: BasemapInfo | null, b: BasemapInfo | null): boolean {
  if (!a || !b) return a === b;
  return JSON.stringify({ ...a, cache: null }) === JSON.stringify({ ...b, cache: null });
}
