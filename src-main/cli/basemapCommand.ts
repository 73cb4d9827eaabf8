/**
 * `basemap status`: what the map draws (getBasemapInfo) and which areas the offline extract covers
 * (getBasemapCoverage: each area's box + 1 km at the extract's top zoom), as one JSON line; an area
 * it misses is named on stderr with the command that extends the extract.
 *
 * `basemap download`: the areas' offline street map, through the engine's contract calls like the
 * app's Settings › Map: the --source URL becomes the folder's setting (updateSettings), then
 * `startBasemapDownload` (estimate, free-space check, one download per folder) and its
 * basemapProgress events become stderr lines until it is done, failed or cancelled (Ctrl-C).
 * The last stdout line is the JSON summary; the file is <data>/basemap/areas.pmtiles.
 */
import { BasemapSourceUrl, type BasemapProgressFields } from '../../src-shared/basemap';
import type { EngineEvent } from '../../src-shared/contract';
import { one, UsageError, type Parsed } from './args';
import { EXIT, type Io } from './io';
import { clockTime } from './progressLine';
import { withSession } from './session';

export const BASEMAP_FLAGS = {
  values: ['data-dir', 'source', 'max-zoom'],
  booleans: ['start-over', 'help'],
  words: 1,
};

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
const count = (n: number): string => n.toLocaleString('en-US');

/** One stderr line for a progress event. */
export function basemapProgressLine(e: BasemapProgressFields, now: number): string {
  const left =
    e.state === 'running' && e.secondsLeft !== null ? `, about ${Math.ceil(e.secondsLeft)} s left` : '';
  return (
    `${clockTime(now)} basemap: ${e.state}: ${count(e.tilesDone)}/${count(e.tilesTotal)} tiles, ` +
    `${mb(e.bytesDone)}/${mb(e.bytesTotal)}${left}\n`
  );
}

export async function basemapCommand(p: Parsed, io: Io): Promise<number> {
  const [sub] = p.words;
  if (sub === 'status') return basemapStatus(p, io);
  if (sub !== 'download')
    throw new UsageError('Say what to do: blotter basemap download --source URL, or blotter basemap status.');
  const started = Date.now();
  const sourceText = one(p, 'source');
  const source = sourceText === undefined ? undefined : parseSource(sourceText);
  const zoomText = one(p, 'max-zoom');
  if (zoomText !== undefined && !/^\d+$/.test(zoomText)) {
    throw new UsageError(`--max-zoom must be a whole number from 0 to 16 (got "${zoomText}").`);
  }
  const maxZoom = zoomText === undefined ? undefined : Number(zoomText);
  if (maxZoom !== undefined && maxZoom > 16) throw new UsageError('--max-zoom must be at most 16.');

  return withSession(io, one(p, 'data-dir'), async (s) => {
    const settings = await s.call('getSettings', {});
    if (source !== undefined && source !== settings.basemapSource) {
      await s.call('updateSettings', { basemapSource: source });
    }
    if (source === undefined && !settings.basemapSource) {
      throw new UsageError('--source is required (this data folder has no basemap source yet).');
    }

    let lastAt = 0;
    let lastState = '';
    let finish: (e: BasemapProgressFields) => void = () => undefined;
    const ended = new Promise<BasemapProgressFields>((resolve) => (finish = resolve));
    const unsubscribe = s.onEvent((e: EngineEvent) => {
      if (e.type !== 'basemapProgress') return;
      const now = Date.now();
      if (e.state === 'running' && e.state === lastState && now - lastAt < 1000) return;
      lastAt = now;
      lastState = e.state;
      if (e.state !== 'failed') io.err(basemapProgressLine(e, now));
      if (e.state !== 'running') finish(e);
    });
    let interrupted = false;
    const onSignal = (): void => {
      interrupted = true;
      void s.call('cancelBasemapDownload', {}).catch(() => undefined);
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    let end: BasemapProgressFields;
    let estimate;
    try {
      estimate = await s.call('startBasemapDownload', {
        ...(maxZoom !== undefined ? { maxZoom } : {}),
        ...(p.flags.has('start-over') ? { startOver: true } : {}),
      });
      io.err(
        `${clockTime(Date.now())} basemap: ${count(estimate.tiles)} tiles, ${mb(estimate.bytes)} for ${estimate.areas} area(s), ` +
          `zoom ${estimate.minZoom}–${estimate.maxZoom}` +
          ((estimate.directoryBytes ?? 0) >= 1e6
            ? `, ${mb(estimate.directoryBytes ?? 0)} of it the source's directories`
            : '') +
          (estimate.resumed ? `, resuming (${mb(estimate.bytesToFetch)} still to fetch)` : '') +
          '\n',
      );
      end = await ended;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      unsubscribe();
    }
    const result = {
      source: estimate.source,
      file: end.file ?? null,
      tiles: end.tilesDone,
      bytes: end.bytesDone,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      complete: end.state === 'done',
      ...(end.state === 'failed' ? { error: end.message ?? 'The download failed.' } : {}),
    };
    io.out(JSON.stringify(result) + '\n');
    if (end.state === 'cancelled' || interrupted) {
      io.err('blotter: basemap download interrupted; run it again to resume where it stopped.\n');
      return EXIT.interrupted;
    }
    if (end.state === 'failed') {
      const again =
        end.problem === 'source_changed'
          ? ' Run it again with --start-over to download the new version.'
          : '';
      io.err(`blotter: ${end.message ?? 'The basemap download failed.'}${again}\n`);
      return EXIT.failed;
    }
    return EXIT.ok;
  });
}

async function basemapStatus(p: Parsed, io: Io): Promise<number> {
  return withSession(io, one(p, 'data-dir'), async (s) => {
    const info = await s.call('getBasemapInfo', {});
    const coverage = await s.call('getBasemapCoverage', {});
    const missing = coverage.areas.filter((a) => !a.covered).map((a) => a.areaId);
    io.out(
      JSON.stringify({
        drawn: info.kind,
        status: info.status,
        ...(info.problem ? { problem: info.problem } : {}),
        source: coverage.source,
        extract: coverage.extract,
        areas: coverage.areas,
        extendOffered: coverage.offerExtend,
      }) + '\n',
    );
    if (coverage.extract && missing.length > 0) {
      io.err(
        `blotter: the offline streets do not cover area${missing.length === 1 ? '' : 's'} ${missing.join(', ')}; ` +
          '`blotter basemap download` rebuilds them for every area (keeping the tiles already here).\n',
      );
    }
    return EXIT.ok;
  });
}

function parseSource(text: string): string {
  const parsed = BasemapSourceUrl.safeParse(text);
  if (!parsed.success) throw new UsageError(`--source: ${parsed.error.issues[0]?.message ?? 'not a URL'}`);
  return parsed.data;
}
