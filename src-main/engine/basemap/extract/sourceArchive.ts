/**
 * The source archive's index: the header (magic checked before any byte is kept), the root
 * directory, the metadata, and the leaf directories the wanted tiles need — each directory read
 * once and kept in the partial store — resolved to where each wanted tile's bytes lie.
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
import { decompress } from '../pmtilesFormat';
import type { PartialStore } from './partialStore';
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

export function sourceIndex(
  source: RangeSource,
  store: PartialStore,
  head: Uint8Array,
  header: PmHeader,
  signal?: AbortSignal,
): SourceIndex & { load(): Promise<void> } {
  async function part(offset: number, length: number): Promise<Uint8Array> {
    if (length > DIR_CAP)
      throw new ExtractProblem('http', `The archive declares a directory larger than ${capText(DIR_CAP)}.`);
    if (offset + length <= head.length) return head.subarray(offset, offset + length);
    const kept = store.part(offset, length);
    if (kept) return kept;
    const bytes = await source.read(offset, length, signal);
    store.putPart(offset, length, bytes);
    return bytes;
  }
  const directory = async (offset: number, length: number): Promise<PmEntry[]> =>
    parseDirectory(decompress(await part(offset, length), header.internalCompression, DIR_CAP));

  let root: PmEntry[] = [];
  const index = {
    metadata: {} as Record<string, unknown>,
    async load() {
      root = await directory(header.rootOffset, header.rootLength);
      if (header.metadataLength > 0) {
        const raw = decompress(
          await part(header.metadataOffset, header.metadataLength),
          header.internalCompression,
          DIR_CAP,
        );
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
    for (const [leaf, leafIds] of leaves) {
      await walk(await directory(header.leafOffset + leaf.offset, leaf.length), leafIds, depth + 1, out);
    }
  }
  return index;
}
