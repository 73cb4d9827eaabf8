/**
 * Extract the tiles covering some areas from a remote PMTiles archive into a local one.
 *
 * `prepareExtract` reads the source's header and the directories the areas need and says what the
 * download will be (tiles, bytes, requests) before any tile byte is fetched; `run()` fetches the
 * missing tile contents with coalesced range requests into `<out>.partial` (resumable after a kill),
 * reporting progress and honouring the AbortSignal, then writes `<out>` as a clustered PMTiles v3.
 */
import { rmSync } from 'node:fs';
import type { Box } from '../../../../src-shared/geo/bbox';
import { COMPRESSION, type PmHeader } from '../../../../src-shared/pmtiles';
import type { FetchLike } from '../../api/source';
import { coalesce, type CoalesceOptions, type RangeRequest } from './coalesce';
import { EXTRACT_RECORD, openLocalArchive, type ExtractRecord, type LocalArchive } from './localArchive';
import { openPartialStore, readPartialStore, type PartialStore } from './partialStore';
import { ExtractProblem, sourceChanged } from './problems';
import { openRangeSource, type RangeSource } from './rangeSource';
import { readHead, sourceIndex, type SourceTile } from './sourceArchive';
import { tileIdsFor, unionBox, withMargin } from './tileSet';
import { writeOutput } from './writeOutput';

export const DEFAULT_MAX_ZOOM = 15;
export const MAX_ZOOM_CAP = 16;
export const MAX_TILES_CAP = 1_000_000;
export const MARGIN_KM = 1;

export type ExtractOptions = {
  sourceUrl: string;
  /** The engine's fetch (Node's, or the host's); every request goes through outboundGet. */
  fetch: FetchLike;
  /** The areas' bounding boxes; each is grown by `marginKm`. */
  boxes: readonly Box[];
  out: string;
  marginKm?: number;
  minZoom?: number;
  maxZoom?: number;
  maxTiles?: number;
  signal?: AbortSignal;
  onProgress?: (p: ExtractProgress) => void;
  coalesce?: CoalesceOptions;
  /**
   * An extract already there (usually `out` itself): when it was built from the same source build
   * (url, etag, header), the tiles it holds are copied from it instead of downloaded again; from
   * another build, nothing of it is used (never two builds in one file).
   */
  reuse?: string;
};

export type ExtractEstimate = {
  /**
   * Tiles the output will hold; bytes: their distinct contents plus the source's directories read
   * to find them (header, root, metadata, leaves) — a source with huge directories says so here.
   */
  tiles: number;
  bytes: number;
  /** Still to fetch (less than the whole when resuming): tile contents plus directories not kept. */
  tilesToFetch: number;
  bytesToFetch: number;
  /** Of `bytes`, the directories (at most DIRECTORIES_CAP, 64 MB). */
  directoryBytes: number;
  /**
   * What run() writes to disk: into the partial file the tiles fetched or copied and the
   * directories not kept yet, then the output (every tile). The free-space check's measure.
   */
  diskBytes: number;
  requests: number;
  resumed: boolean;
  minZoom: number;
  maxZoom: number;
  /** Tiles copied from the existing extract (same build) rather than downloaded. */
  reusedTiles: number;
  /** The existing extract was built from another version of the source; this one replaces it whole. */
  newVersion: boolean;
};

export type ExtractProgress = {
  tilesDone: number;
  tilesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  /** null until there is a rate to go by. */
  secondsLeft: number | null;
};

export type ExtractResult = {
  file: string;
  tiles: number;
  fileBytes: number;
  /** This run's network use (directories and tile data). */
  requests: number;
  bytesFetched: number;
  /** Of which tile data (the rest is header and directories). */
  tileBytesFetched: number;
  seconds: number;
};

export type PreparedExtract = {
  estimate: ExtractEstimate;
  run(): Promise<ExtractResult>;
  /** Leave without downloading (the partial file stays for a later resume). */
  close(): void;
};

export const partialFileOf = (out: string): string => `${out}.partial`;

/** Removes an unfinished download ("start over"). */
export function discardPartial(out: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${partialFileOf(out)}${suffix}`, { force: true });
}

export async function prepareExtract(opts: ExtractOptions): Promise<PreparedExtract> {
  const maxZoom = opts.maxZoom ?? DEFAULT_MAX_ZOOM;
  const maxTiles = Math.min(opts.maxTiles ?? MAX_TILES_CAP, MAX_TILES_CAP);
  if (!Number.isInteger(maxZoom) || maxZoom < 0 || maxZoom > MAX_ZOOM_CAP) {
    throw new ExtractProblem('bad_request', `The zoom must be a whole number from 0 to ${MAX_ZOOM_CAP}.`);
  }
  if (opts.boxes.length === 0) throw new ExtractProblem('bad_request', 'There are no areas to extract.');
  const started = performance.now();
  const boxes = opts.boxes.map((b) => withMargin(b, opts.marginKm ?? MARGIN_KM));
  const partialFile = partialFileOf(opts.out);
  // Preparing writes nothing: what an earlier run kept is read, what is read now stays in memory
  // (under the directories' bound) until run() keeps it.
  const kept = readPartialStore(partialFile);
  try {
    const keptIdentity = kept?.identity() ?? null;
    const source = openRangeSource(opts.sourceUrl, opts.fetch);
    const { head, header } = await readHead(source, opts.signal);
    const headerBytes = head.subarray(0, 127);
    const resumed = !!keptIdentity && keptIdentity.url === opts.sourceUrl;
    if (resumed && (keptIdentity.etag !== source.etag() || !sameBytes(keptIdentity.header, headerBytes))) {
      throw sourceChanged();
    }
    const request = JSON.stringify({ boxes, maxZoom });
    const identity = { url: opts.sourceUrl, etag: source.etag(), header: headerBytes, request };
    const record: ExtractRecord = {
      source: opts.sourceUrl,
      etag: source.etag(),
      header: Buffer.from(headerBytes).toString('base64'),
      boxes,
      minZoom: 0,
      maxZoom: 0,
    };

    const minZoom = Math.max(opts.minZoom ?? 0, header.minZoom);
    const topZoom = Math.min(maxZoom, header.maxZoom);
    record.minZoom = minZoom;
    record.maxZoom = topZoom;
    const ids = tileIdsFor(boxes, minZoom, topZoom, maxTiles);
    const index = sourceIndex(source, resumed ? kept : null, head, header, opts.signal);
    await index.load();
    const tiles = await index.resolve(ids);
    if (tiles.length === 0)
      throw new ExtractProblem('bad_request', 'The source has no tiles in these areas.');

    const contents = new Map<number, { offset: number; length: number; tiles: number; tileId: number }>();
    for (const t of tiles) {
      const c = contents.get(t.offset);
      if (c) c.tiles++;
      else contents.set(t.offset, { offset: t.offset, length: t.length, tiles: 1, tileId: t.tileId });
    }
    const have = resumed && kept ? kept.haveTiles() : new Set<number>();
    kept?.close();
    const previous = opts.reuse ? await openLocalArchive(opts.reuse) : null;
    const sameBuild =
      !!previous?.record &&
      previous.record.source === record.source &&
      previous.record.etag === record.etag &&
      previous.record.header === record.header;
    const reusable = new Map<number, { offset: number; length: number }>();
    if (previous && sameBuild) {
      for (const c of contents.values()) {
        if (have.has(c.offset)) continue;
        // An extract that cannot be read there (damaged, a bomb) gives nothing: the tile is fetched.
        const at = await previous.entry(c.tileId).catch(() => null);
        if (at && at.length === c.length) reusable.set(c.offset, at);
      }
    }
    if (reusable.size === 0) await previous?.close();
    const missing = [...contents.values()].filter((c) => !have.has(c.offset) && !reusable.has(c.offset));
    const requests = coalesce(missing, opts.coalesce);
    const directories = index.stats;
    const tileBytes = sum([...contents.values()].map((c) => c.length));
    const tileBytesToFetch = sum(missing.map((c) => c.length));
    const estimate: ExtractEstimate = {
      tiles: tiles.length,
      bytes: tileBytes + directories.bytes,
      tilesToFetch: sum(missing.map((c) => c.tiles)),
      bytesToFetch: tileBytesToFetch + directories.fetchedBytes,
      directoryBytes: directories.bytes,
      diskBytes:
        tileBytesToFetch +
        sum([...reusable.keys()].map((offset) => contents.get(offset)?.length ?? 0)) +
        sum(index.fetched.map((p) => p.bytes.length)) +
        tileBytes,
      requests: requests.length,
      resumed,
      minZoom,
      maxZoom: topZoom,
      reusedTiles: sum([...reusable.keys()].map((offset) => contents.get(offset)?.tiles ?? 0)),
      newVersion: !!previous?.record && !sameBuild,
    };
    const bounds = unionBox(boxes);
    const local = reusable.size > 0 ? previous : null;
    let store: PartialStore | null = null;
    return {
      estimate,
      close: () => {
        void local?.close().catch(() => undefined);
      },
      run: async () => {
        try {
          store = openPartialStore(partialFile);
          const open = store;
          if (!resumed) open.start(identity);
          // The directories read while preparing, kept so a resume does not fetch them again.
          for (const p of index.fetched) open.putPart(p.offset, p.length, p.bytes);
          if (local) await copyReused(local, reusable, open);
          const tileBytesFetched = await fetchTiles(
            source,
            open,
            header,
            requests,
            contents,
            estimate,
            tileBytesToFetch,
            opts,
          );
          const written = await writeOutput(open, {
            out: opts.out,
            tiles,
            source: header,
            metadata: { ...index.metadata, [EXTRACT_RECORD]: record },
            bounds: [bounds.minLon, bounds.minLat, bounds.maxLon, bounds.maxLat],
            minZoom,
            maxZoom: topZoom,
          });
          open.close();
          discardPartial(opts.out);
          return {
            file: opts.out,
            tiles: written.tiles,
            fileBytes: written.bytes,
            requests: source.stats.requests,
            bytesFetched: source.stats.bytes,
            tileBytesFetched,
            seconds: (performance.now() - started) / 1000,
          };
        } catch (error) {
          store?.close();
          throw error;
        } finally {
          await local?.close().catch(() => undefined);
        }
      },
    };
  } catch (error) {
    kept?.close();
    throw error;
  }
}

/** prepare + run in one call. */
export async function extractBasemap(opts: ExtractOptions): Promise<ExtractResult> {
  return (await prepareExtract(opts)).run();
}

/** The same build's tiles, copied from the existing extract into the partial store (local, no request). */
async function copyReused(
  local: LocalArchive,
  reusable: Map<number, { offset: number; length: number }>,
  store: PartialStore,
): Promise<void> {
  let batch: { offset: number; bytes: Uint8Array }[] = [];
  for (const [offset, at] of reusable) {
    batch.push({ offset, bytes: await local.read(at.offset, at.length) });
    if (batch.length >= 512) {
      store.putTiles(batch);
      batch = [];
    }
  }
  store.putTiles(batch);
}

async function fetchTiles(
  source: RangeSource,
  store: PartialStore,
  header: PmHeader,
  requests: readonly RangeRequest[],
  contents: Map<number, { tiles: number }>,
  estimate: ExtractEstimate,
  tileBytesToFetch: number,
  opts: ExtractOptions,
): Promise<number> {
  const t0 = performance.now();
  let tilesDone = estimate.tiles - estimate.tilesToFetch;
  // The directories were read while preparing: done, as are the tiles kept or reused.
  let bytesDone = estimate.bytes - tileBytesToFetch;
  let fetchedNow = 0;
  let requested = 0;
  const report = () =>
    opts.onProgress?.({
      tilesDone,
      tilesTotal: estimate.tiles,
      bytesDone,
      bytesTotal: estimate.bytes,
      secondsLeft:
        fetchedNow > 0 ? ((estimate.bytes - bytesDone) * (performance.now() - t0)) / 1000 / fetchedNow : null,
    });
  report();
  for (const req of requests) {
    if (opts.signal?.aborted) throw new ExtractProblem('cancelled', 'The basemap download was cancelled.');
    const bytes = await source.read(header.dataOffset + req.offset, req.length, opts.signal);
    requested += bytes.length;
    const parts = req.parts.map((p) => {
      const slice = bytes.slice(p.offset - req.offset, p.offset - req.offset + p.length);
      if (header.tileCompression === COMPRESSION.gzip && !(slice[0] === 0x1f && slice[1] === 0x8b)) {
        throw sourceChanged();
      }
      return { offset: p.offset, bytes: slice };
    });
    store.putTiles(parts);
    for (const p of req.parts) {
      tilesDone += contents.get(p.offset)?.tiles ?? 0;
      bytesDone += p.length;
      fetchedNow += p.length;
    }
    report();
  }
  return requested;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

export type { SourceTile };
