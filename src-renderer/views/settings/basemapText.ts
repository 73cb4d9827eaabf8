/**
 * The offline streets' download in words — one place for Settings › Map's download
 * (AreasDownload.tsx) and an area's "Extend offline map to this area" (areas/StreetsOffer.tsx):
 * the estimate, the progress, and a source's new version (the extract rebuilt whole, started over).
 */
import type { BasemapEstimate, BasemapProgressFields } from '../../../src-shared/basemap';

export const mb = (bytes: number): string =>
  bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${Math.max(0.1, bytes / 1e6).toFixed(1)} MB`;
const count = (n: number): string => n.toLocaleString('en-US');

export function estimateText(e: BasemapEstimate): string {
  const resumed = e.resumed ? ` ${mb(e.bytesToFetch)} of it still to download (resuming).` : '';
  return (
    `About ${count(e.tiles)} tiles, ${mb(e.bytes)}, for ${e.areas} area${e.areas === 1 ? '' : 's'} ` +
    `(zoom ${e.minZoom}–${e.maxZoom}, each area plus 1 km). ${mb(e.freeBytes)} free on this disk.${resumed}`
  );
}

/** What a new version of the source means (the estimate's newVersion); null when it is the same build. */
export function newVersionText(e: BasemapEstimate): string | null {
  return e.newVersion
    ? `The source has a new version: the extract will be rebuilt whole (${count(e.tiles)} tiles, ${mb(e.bytes)}).`
    : null;
}

/** The download button: a new version of the source is started over, never mixed with the old. */
export const downloadLabel = (e: BasemapEstimate | null, changed = false): string =>
  e?.newVersion || changed ? 'Start over with the new version' : 'Download';

export function progressText(p: BasemapProgressFields): string {
  const base = `${count(p.tilesDone)} of ${count(p.tilesTotal)} tiles · ${mb(p.bytesDone)} of ${mb(p.bytesTotal)}`;
  if (p.state === 'done') return `Done: ${base}. The map now shows the streets of your areas, offline.`;
  if (p.state === 'cancelled') return `Cancelled at ${base}. Download again to resume.`;
  if (p.state === 'failed') return p.message ?? 'The download failed.';
  const left = p.secondsLeft !== null ? ` · about ${Math.max(1, Math.ceil(p.secondsLeft))} s left` : '';
  return `${base}${left}`;
}
