/**
 * The source archive's index: the header (magic checked before any byte is kept), the root
 * directory, the metadata, and the leaf directories the wanted tiles need — each read once (from
 * the partial store when an earlier run kept it), held in memory under one bound for all of them,
 * and handed to the run to keep — resolved to where each wanted tile's bytes lie.
 */
import {
  findEntry,
  hasMagic,
  parseDirectory,
  parseHeader,
  type PmEntry,
  type PmHeader,
} from '../../../../src-shared/pmtiles';
import { BODY_CAPS, capText } from '../../api/outboundAddress';
import { decompress, PartProblem } from '../pmtilesFormat';
import { ExtractProblem } from './problems';
import type { RangeSource } from './rangeSource';

/** The first bytes a reader fetches: header and (usually) the root directory. */
export const HEAD_FETCH = 16_384;
const DIR_CAP = BODY_CAPS.pmtilesDirectory;

export type SourceTile = { tileId: number; offset: number; length: number };

/** Reads the first 16 KiB; refuses anything that does not start with the PMTiles magic. */
export async function readHead(
  source: RangeSource,
  signal?: AbortSignal,
): Promise<{ head: Uint8Array; header: PmHeader }> {
  const head = await source.read(0, HEAD_FETCH, signal);
  if (!hasMagic(head)) {
    throw new ExtractProblem(
      'not_pmtiles',
      `${source.url} is not a PMTiles archive (its first bytes are not the PMTiles magic).`,
    );
  }
  let header: PmHeader;
  try {
    header = parseHeader(head);
  } catch (error) {
    throw new ExtractProblem('not_pmtiles', `${source.url}: ${(error as Error).message}.`);
  }
  return { head, header };
}

export type SourceIndex = {
  metadata: Record<string, unknown>;
  /** Where the wanted tiles' bytes are (relative to the data section), by ascending tile id; absent tiles left out. */
  resolve(tileIds: readonly number[]): Promise<SourceTile[]>;
};

/** Directory parts an earlier run kept (the partial store, read only), by offset and length. */
export type KeptParts = { part(offset: number, length: number): Uint8Array | null };

/** A directory part fetched now: the run keeps it (so a resume reads it from disk, not the source). */
export type FetchedPart = { offset: number; length: number; bytes: Uint8Array };

/**
 * All the directories (and metadata) one extract reads, together: as fetched or stored, and once
 * decompressed. Each is also under DESIGN.md's 16 MB. Past either, the source is refused before
 * more is read — so an estimate's memory, and what a download stores besides tiles, stay bounded.
 */
export const DIRECTORIES_CAP = 4 * DIR_CAP;

export function sourceIndex(
  source: RangeSource,
  kept: KeptParts | null,
  head: Uint8Array,
  header: PmHeader,
  signal?: AbortSignal,
): SourceIndex & {
  load(): Promise<void>;
  /** Parts fetched by this index (not already kept), in the order read. */
  fetched: FetchedPart[];
  /** Directory bytes read (the first 16 KiB included), and of those fetched from the source now. */
  stats: { bytes: number; fetchedBytes: number };
} {
  const fetched: FetchedPart[] = [];
  const stats = { bytes: head.length, fetchedBytes: head.length };
  let decoded = 0;
  const refuseTotal = (): never => {
    throw new ExtractProblem(
      'too_large',
      `${source.url}: the directories these areas need come to more than ${capText(DIRECTORIES_CAP)}, ` +
        `the most Blotter reads for one extract (at most ${capText(DIR_CAP)} each); Blotter refused the source. ` +
        'Smaller areas or a lower zoom need fewer.',
    );
  };

  async function part(offset: number, length: number): Promise<Uint8Array> {
    if (length > DIR_CAP) {
      throw new ExtractProblem(
        'too_large',
        `${source.url} declares a directory larger than ${capText(DIR_CAP)}, the most Blotter reads for one directory; Blotter refused the source.`,
      );
    }
    if (offset + length <= head.length) return head.subarray(offset, offset + length);
    if (stats.bytes + length > DIRECTORIES_CAP) refuseTotal();
    stats.bytes += length;
    const have = kept?.part(offset, length);
    if (have) return have;
    const bytes = await source.read(offset, length, signal);
    stats.fetchedBytes += bytes.length;
    fetched.push({ offset, length, bytes });
    return bytes;
  }

  /** Decompressed under the 16 MB cap and what is left of the 64 MB; a bomb stops at the cap. */
  function inflate(bytes: Uint8Array, what: string): Uint8Array {
    const left = DIRECTORIES_CAP - decoded;
    let raw: Uint8Array;
    try {
      raw = decompress(bytes, header.internalCompression, Math.min(DIR_CAP, left));
    } catch (error) {
      if (!(error instanceof PartProblem)) throw error;
      if (error.kind === 'too_large' && left < DIR_CAP) refuseTotal();
      throw new ExtractProblem(
        error.kind === 'too_large' ? 'too_large' : 'damaged',
        error.kind === 'too_large'
          ? `${what} of ${source.url} decompresses to more than ${capText(DIR_CAP)}, the most Blotter reads for one directory (a gzip bomb or a damaged archive); Blotter refused the source.`
          : `${what} of ${source.url} ${error.message}; Blotter cannot use this source.`,
      );
    }
    decoded += raw.length;
    return raw;
  }

  async function directory(offset: number, length: number, what: string): Promise<PmEntry[]> {
    const raw = inflate(await part(offset, length), what);
    try {
      return parseDirectory(raw);
    } catch (error) {
      throw new ExtractProblem(
        'damaged',
        `${what} of ${source.url} is not a PMTiles directory (${(error as Error).message}); Blotter cannot use this source.`,
      );
    }
  }

  let root: PmEntry[] = [];
  const index = {
    metadata: {} as Record<string, unknown>,
    fetched,
    stats,
    async load() {
      root = await directory(header.rootOffset, header.rootLength, 'The root directory');
      if (header.metadataLength > 0) {
        const raw = inflate(await part(header.metadataOffset, header.metadataLength), 'The metadata');
        try {
          const parsed: unknown = JSON.parse(new TextDecoder().decode(raw));
          if (parsed && typeof parsed === 'object') index.metadata = parsed as Record<string, unknown>;
        } catch {
          // metadata is optional
        }
      }
    },
    async resolve(tileIds: readonly number[]): Promise<SourceTile[]> {
      const out: SourceTile[] = [];
      await walk(root, tileIds, 0, out);
      return out.sort((a, b) => a.tileId - b.tileId);
    },
  };

  async function walk(
    dir: PmEntry[],
    ids: readonly number[],
    depth: number,
    out: SourceTile[],
  ): Promise<void> {
    if (depth > 3)
      throw new ExtractProblem('http', 'The archive nests its directories deeper than PMTiles allows.');
    const leaves = new Map<PmEntry, number[]>();
    for (const id of ids) {
      const e = findEntry(dir, id);
      if (!e) continue;
      if (e.runLength > 0) out.push({ tileId: id, offset: e.offset, length: e.length });
      else {
        const group = leaves.get(e);
        if (group) group.push(id);
        else leaves.set(e, [id]);
      }
    }
    // The leaves this level needs, together, before any is fetched: a source whose directories
    // would pass the bound is refused without reading them.
    let declared = 0;
    for (const leaf of leaves.keys()) declared += leaf.length;
    if (stats.bytes + declared > DIRECTORIES_CAP) refuseTotal();
    for (const [leaf, leafIds] of leaves) {
      const entries = await directory(header.leafOffset + leaf.offset, leaf.length, 'A leaf directory');
      await walk(entries, leafIds, depth + 1, out);
    }
  }
  return index;
}
