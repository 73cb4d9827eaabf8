/**
 * The areas' offline basemap: estimate, start and cancel the extract of every area's box (+1 km)
 * from the source archive into `<data>/basemap/areas.pmtiles` (0600), one download at a time per
 * data folder (downloadLock.ts), free space checked before any tile byte. Progress goes out as
 * `basemapProgress` events; when the file lands the basemap service re-opens on it.
 */
import { chmodSync, existsSync, mkdirSync, statfsSync } from 'node:fs';
import path from 'node:path';
import type {
  BasemapDownloadInput,
  BasemapEstimate,
  BasemapProgressFields,
} from '../../../src-shared/basemap';
import type { Box } from '../../../src-shared/geo/bbox';
import { OutboundRefused } from '../api/outboundAddress';
import type { FetchLike } from '../api/source';
import { EngineError } from '../errors';
import { takeDownloadLock } from './downloadLock';
import { discardPartial, prepareExtract, type PreparedExtract } from './extract/extract';
import { ExtractProblem } from './extract/problems';

export const AREAS_FILE = path.join('basemap', 'areas.pmtiles');
export const areasFileOf = (dataDir: string): string => path.join(dataDir, AREAS_FILE);

/** Room kept free beyond the download (SQLite journals, the output's directories). */
const SPACE_MARGIN = 32 * 1024 * 1024;

export type DownloadDeps = {
  dataDir: string;
  /** Every area's bounding box. */
  boxes: () => Box[];
  /** The stored source URL (settings.basemapSource). */
  source: () => string | undefined;
  fetch: () => Promise<FetchLike>;
  emit: (progress: BasemapProgressFields) => void;
  /** The output file was (re)written. */
  onLanded: () => void;
  /** Free bytes on the data folder's disk (tests replace it). */
  freeBytes?: (dir: string) => number;
};

export interface BasemapDownloads {
  estimate(input: BasemapDownloadInput): Promise<BasemapEstimate>;
  /** Starts the download (after the estimate's checks) and returns; progress comes as events. */
  start(input: BasemapDownloadInput): Promise<BasemapEstimate>;
  cancel(): boolean;
  /** Whether this process is downloading. */
  running(): boolean;
  close(): Promise<void>;
}

const diskFree = (dir: string): number => {
  const s = statfsSync(dir);
  return Number(s.bavail) * Number(s.bsize);
};

/** An extract's failure as the contract's error code and words. */
export function toEngineError(error: unknown): unknown {
  if (error instanceof ExtractProblem) {
    const code =
      error.code === 'cancelled'
        ? 'cancelled'
        : error.code === 'source_changed'
          ? 'conflict'
          : error.code === 'bad_request' || error.code === 'too_many_tiles'
            ? 'bad_input'
            : 'bad_response';
    return new EngineError(code, error.message);
  }
  if (error instanceof OutboundRefused) return new EngineError('bad_response', error.message);
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) {
    return new EngineError('offline', 'The basemap source could not be reached.');
  }
  return error;
}

export function createBasemapDownloads(deps: DownloadDeps): BasemapDownloads {
  const out = areasFileOf(deps.dataDir);
  const lockFile = path.join(path.dirname(out), 'download.lock');
  const free = deps.freeBytes ?? diskFree;
  let current: { abort: AbortController; done: Promise<void> } | null = null;

  function sourceOf(input: BasemapDownloadInput): string {
    const source = input.source ?? deps.source();
    if (!source) throw new EngineError('bad_input', 'Set the basemap source URL first (Settings › Map).');
    return source;
  }

  /** Reads the source's directories and says what the download will be; checks the space. */
  async function prepare(
    input: BasemapDownloadInput,
    signal?: AbortSignal,
    onProgress?: (p: BasemapProgressFields) => void,
  ): Promise<{ prepared: PreparedExtract; estimate: BasemapEstimate }> {
    const source = sourceOf(input);
    const boxes = deps.boxes();
    if (boxes.length === 0)
      throw new EngineError('bad_input', 'Add an area first: the download covers your areas.');
    mkdirSync(path.dirname(out), { recursive: true, mode: 0o700 });
    if (input.startOver) discardPartial(out);
    let prepared: PreparedExtract;
    try {
      prepared = await prepareExtract({
        sourceUrl: source,
        fetch: await deps.fetch(),
        boxes,
        out,
        maxZoom: input.maxZoom,
        // Extending: the same build's tiles come from the extract already here.
        reuse: existsSync(out) ? out : undefined,
        signal,
        onProgress: onProgress && ((p) => onProgress({ state: 'running', ...p })),
      });
    } catch (error) {
      throw toEngineError(error);
    }
    const e = prepared.estimate;
    const estimate: BasemapEstimate = {
      source,
      areas: boxes.length,
      tiles: e.tiles,
      bytes: e.bytes,
      tilesToFetch: e.tilesToFetch,
      bytesToFetch: e.bytesToFetch,
      requests: e.requests,
      resumed: e.resumed,
      minZoom: e.minZoom,
      maxZoom: e.maxZoom,
      freeBytes: free(path.dirname(out)),
      reusedTiles: e.reusedTiles,
      newVersion: e.newVersion,
      directoryBytes: e.directoryBytes,
    };
    return { prepared, estimate };
  }

  function needSpace(estimate: BasemapEstimate, prepared: PreparedExtract): void {
    // The partial store takes the tiles and the directories read, then the output is written beside it.
    const need = prepared.estimate.diskBytes + SPACE_MARGIN;
    if (estimate.freeBytes < need) {
      throw new EngineError(
        'disk_full',
        `The basemap needs about ${mb(need)} free on the data folder's disk; ${mb(estimate.freeBytes)} is free.`,
      );
    }
  }

  function busy(): never {
    throw new EngineError('conflict', 'A basemap download is already running.');
  }

  return {
    async estimate(input) {
      if (current) busy();
      const release = takeDownloadLock(lockFile);
      try {
        // Reads the source's header and directories into memory (64 MB at most) and writes nothing.
        const { prepared, estimate } = await prepare(input);
        prepared.close();
        return estimate;
      } finally {
        release();
      }
    },

    async start(input) {
      if (current) busy();
      const release = takeDownloadLock(lockFile);
      const abort = new AbortController();
      let last: BasemapProgressFields = {
        state: 'running',
        tilesDone: 0,
        tilesTotal: 0,
        bytesDone: 0,
        bytesTotal: 0,
        secondsLeft: null,
      };
      let lastAt = 0;
      const progress = (p: BasemapProgressFields): void => {
        last = p;
        const now = Date.now();
        if (p.state === 'running' && now - lastAt < 250 && p.tilesDone < p.tilesTotal) return;
        lastAt = now;
        deps.emit(p);
      };
      let prepared: PreparedExtract;
      let estimate: BasemapEstimate;
      try {
        ({ prepared, estimate } = await prepare(input, abort.signal, progress));
        try {
          needSpace(estimate, prepared);
        } catch (error) {
          prepared.close();
          throw error;
        }
      } catch (error) {
        release();
        throw error;
      }
      const done = (async () => {
        try {
          const result = await prepared.run();
          chmodSync(result.file, 0o600);
          deps.onLanded();
          deps.emit({
            ...last,
            state: 'done',
            tilesDone: last.tilesTotal,
            bytesDone: last.bytesTotal,
            secondsLeft: 0,
            file: result.file,
          });
        } catch (error) {
          const cancelled =
            abort.signal.aborted || (error instanceof ExtractProblem && error.code === 'cancelled');
          const mapped = toEngineError(error);
          deps.emit({
            ...last,
            state: cancelled ? 'cancelled' : 'failed',
            secondsLeft: null,
            ...(cancelled
              ? {}
              : {
                  problem:
                    error instanceof ExtractProblem
                      ? error.code
                      : mapped instanceof EngineError
                        ? mapped.code
                        : 'internal',
                  message:
                    mapped instanceof Error &&
                    (mapped instanceof EngineError || error instanceof ExtractProblem)
                      ? mapped.message
                      : 'The basemap download failed; the details are in the log.',
                }),
          });
        } finally {
          release();
          current = null;
        }
      })();
      current = { abort, done };
      deps.emit({
        ...last,
        tilesTotal: estimate.tiles,
        bytesTotal: estimate.bytes,
        tilesDone: estimate.tiles - estimate.tilesToFetch,
        bytesDone: estimate.bytes - estimate.bytesToFetch,
      });
      return estimate;
    },

    cancel() {
      if (!current) return false;
      current.abort.abort();
      return true;
    },

    running: () => current !== null,

    async close() {
      const c = current;
      if (!c) return;
      c.abort.abort();
      await c.done.catch(() => undefined);
    },
  };
}

const mb = (bytes: number): string => `${Math.max(1, Math.round(bytes / 1e6)).toLocaleString('en-US')} MB`;
