/** The words of "Extend offline map to this area" (StreetsOffer.tsx), from the engine's estimate. */
import type { BasemapEstimate } from '../../src-shared/basemap';
import { estimateText, newVersionText } from '../views/settings/basemapText';

/** Settings' estimate words, plus what is kept from the extract and whether the source is new. */
export function offerEstimateText(e: BasemapEstimate): string {
  const kept = e.reusedTiles
    ? ` ${e.reusedTiles.toLocaleString('en-US')} tiles are already here and are kept.`
    : '';
  const fresh = newVersionText(e);
  return `${estimateText(e)}${kept}${fresh ? ` ${fresh}` : ''}`;
}
