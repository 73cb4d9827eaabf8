/**
 * Does the areas' extract cover an area? The extract holds the tiles of its boxes (each already
 * grown by the 1 km margin) on zooms 0..maxZoom; an area is covered when every tile its own box
 * plus 1 km touches at the extract's top zoom is one of those (the lower zooms follow: a tile's
 * parent lies in the parent range). Checked row by row of tiles, so a large area costs its rows
 * times the extract's boxes, never its tile count.
 */
import type { Box } from '../../../src-shared/geo/bbox';
import { MARGIN_KM } from './extract/extract';
import { rangesOf, withMargin } from './extract/tileSet';

export type ExtractExtent = { boxes: readonly Box[]; maxZoom: number };

export function covers(extent: ExtractExtent, area: Box, marginKm = MARGIN_KM): boolean {
  if (extent.boxes.length === 0) return false;
  const z = extent.maxZoom;
  const [need] = rangesOf([withMargin(area, marginKm)], z, z);
  const have = rangesOf(extent.boxes, z, z);
  if (!need) return false;
  for (let y = need.minY; y <= need.maxY; y++) {
    const spans = have
      .filter((r) => r.minY <= y && y <= r.maxY)
      .map((r) => [r.minX, r.maxX] as const)
      .sort((a, b) => a[0] - b[0]);
    let reach = need.minX - 1; // every x up to `reach` is held
    for (const [from, to] of spans) {
      if (from > reach + 1) break;
      reach = Math.max(reach, to);
    }
    if (reach < need.maxX) return false;
  }
  return true;
}
