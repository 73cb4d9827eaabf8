/** The words of "Extend offline map to this area" (StreetsOffer.tsx), from the engine's estimate. */
import type { BasemapEstimate } from '../../src-shared/basemap';
import { estimateText } from '../views/settings/AreasDownload';

/** Settings' estimate words, plus what is kept from the extract and whether the source is new. */
export function offerEstimateText(e: BasemapEstimate): string {
  const kept = e.reusedTiles
    ? ` ${e.reusedTiles.toLocaleString('en-US')} tiles are already here and are kept.`
    : '';
  const fresh = e.newVersion
    ? ' The source has a new version since your offline map was made: it is downloaded whole from the new version.'
    : '';
  return `${estimateText(e)}${kept}${fresh}`;
}

/** The confirm button: a new version of the source is started over, never mixed with the old. */
export const offerConfirmLabel = (e: BasemapEstimate | null, changed = false): string =>
  e?.newVersion || changed ? 'Start over with the new version' : 'Download';
