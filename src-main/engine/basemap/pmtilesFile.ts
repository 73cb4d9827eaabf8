/**
 * A PMTiles v3 archive on disk: byte ranges read with a FileHandle (nothing is loaded whole), the
 * root directory kept, leaf directories cached (a few hundred), tiles returned as stored.
 */
import { BODY_CAPS, capText } from '../api/outboundAddress';
import { open, type FileHandle } from 'node:fs/promises';
import type { TileBytes, TileCoord } from '../../../src-shared/basemap';
import {
  decompress,
  findEntry,
  PartProblem,
  parseDirectory,
  parseHeader,
  tileIdOf,
  TILE_TYPE,
  type PmEntry,
  type PmHeader,
} from './pmtilesFormat';
import { CONTENT_TYPES, sniffFormat, type TileFormat } from './tileFormat';
import { BasemapProblem, type SourceInfo, type TileSource } from './tileSource';

const FORMAT_OF: Record<number, TileFormat> = {
  [TILE_TYPE.png]: 'png',
  [TILE_TYPE.jpeg]: 'jpeg',
  [TILE_TYPE.webp]: 'webp',
  [TILE_TYPE.mvt]: 'mvt',
};
const LEAF_CACHE = 256;
/** Directories and metadata are read and decompressed up to 16 MB, tiles up to 4 MB (api/outboundAddress.ts). */
const DIR_CAP = BODY_CAPS.pmtilesDirectory;

export async function openPmtiles(file: string): Promise<TileSource> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw new BasemapProblem(`Cannot open ${file}: ${(error as Error).message}.`);
  }
  const read = async (offset: number, length: number, cap: number): Promise<Uint8Array> => {
    if (length > cap)
      throw new BasemapProblem(`${file} declares a part larger than ${capText(cap)}.`, 'refused');
    const buffer = new Uint8Array(length);
    const { bytesRead } = await handle.read(buffer, 0, length, offset);
    return buffer.subarray(0, bytesRead);
  };
  let header: PmHeader;
  let root: PmEntry[];
  try {
    header = parseHeader(await read(0, 127, 127));
    root = parseDirectory(
      decompress(
        await read(header.rootOffset, header.rootLength, DIR_CAP),
        header.internalCompression,
        DIR_CAP,
      ),
    );
  } catch (error) {
    await handle.close();
    if (error instanceof PartProblem) {
      throw new BasemapProblem(`Cannot read ${file}: its root directory ${error.message}.`, 'refused');
    }
    throw new BasemapProblem(`Cannot read ${file} as a PMTiles archive: ${(error as Error).message}.`);
  }
  const format = FORMAT_OF[header.tileType] ?? 'unknown';
  const leaves = new Map<number, PmEntry[]>();

  async function leaf(offset: number, length: number): Promise<PmEntry[]> {
    let dir = leaves.get(offset);
    if (!dir) {
      dir = parseDirectory(
        decompress(
          await read(header.leafOffset + offset, length, DIR_CAP),
          header.internalCompression,
          DIR_CAP,
        ),
      );
      if (leaves.size >= LEAF_CACHE) leaves.delete(leaves.keys().next().value as number);
      leaves.set(offset, dir);
    }
    return dir;
  }

  /**
   * A part read for a tile: one that is too large (a gzip bomb stops at the cap), not gzip or not
   * a directory is the file's problem, said as such (bad_response), never an internal error.
   */
  async function part<T>(what: string, readIt: () => Promise<T>): Promise<T> {
    try {
      return await readIt();
    } catch (error) {
      if (error instanceof PartProblem) {
        const tail =
          error.kind === 'too_large' ? '; Blotter stopped reading it (a damaged or hostile file)' : '';
        throw new BasemapProblem(`${what} ${error.message}${tail}.`, 'refused');
      }
      if (error instanceof BasemapProblem) throw error;
      throw new BasemapProblem(`${what} cannot be read: ${(error as Error).message}.`, 'refused');
    }
  }

  return {
    async info(): Promise<SourceInfo> {
      let meta: Record<string, unknown> = {};
      try {
        const raw = decompress(
          await read(header.metadataOffset, header.metadataLength, DIR_CAP),
          header.internalCompression,
          DIR_CAP,
        );
        const parsed: unknown = JSON.parse(new TextDecoder().decode(raw));
        if (parsed && typeof parsed === 'object') meta = parsed as Record<string, unknown>;
      } catch {
        // metadata is optional
      }
      const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);
      return {
        name: text(meta.name),
        attribution: text(meta.attribution),
        format,
        minZoom: header.minZoom,
        maxZoom: header.maxZoom,
        bounds: header.bounds,
      };
    },
    async tile({ z, x, y }: TileCoord): Promise<TileBytes | null> {
      if (z < header.minZoom || z > header.maxZoom) return null;
      const id = tileIdOf(z, x, y);
      let dir = root;
      for (let depth = 0; depth < 4; depth++) {
        const entry = findEntry(dir, id);
        if (!entry) return null;
        if (entry.runLength > 0) {
          const bytes = await part(`The tile ${z}/${x}/${y} of ${file}`, async () =>
            decompress(
              await read(header.dataOffset + entry.offset, entry.length, BODY_CAPS.tile),
              header.tileCompression,
              BODY_CAPS.tile,
            ),
          );
          const kind = format === 'unknown' ? sniffFormat(bytes) : format;
          return { bytes, contentType: CONTENT_TYPES[kind] };
        }
        dir = await part(`A leaf directory of ${file} (for tile ${z}/${x}/${y})`, () =>
          leaf(entry.offset, entry.length),
        );
      }
      return null;
    },
    close: () => handle.close(),
  };
}
