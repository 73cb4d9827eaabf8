/**
 * The areas' extract already on disk, read for two things: what it was built for (the
 * `blotter_extract` record in its metadata: source, build identity, the margin-grown boxes, zooms)
 * and its tiles' stored (still compressed) bytes by tile id, so extending it copies what the same
 * build already gave instead of downloading it again.
 */
import { open, type FileHandle } from 'node:fs/promises';
import {
  findEntry,
  hasMagic,
  parseDirectory,
  parseHeader,
  type PmEntry,
  type PmHeader,
} from '../../../../src-shared/pmtiles';
import type { Box } from '../../../../src-shared/geo/bbox';
import { BODY_CAPS } from '../../api/outboundAddress';
import { decompress } from '../pmtilesFormat';

/** The metadata key the extractor writes its record under. */
export const EXTRACT_RECORD = 'blotter_extract';

/** Which source build an extract (or a partial download) holds, and what it was asked for. */
export type ExtractRecord = {
  source: string;
  etag: string | null;
  /** The source's 127-byte header, base64: a new build has new directory offsets. */
  header: string;
  /** The areas' boxes, each already grown by the margin. */
  boxes: Box[];
  minZoom: number;
  maxZoom: number;
};

export type LocalArchive = {
  header: PmHeader;
  /** null for an extract written before the record existed (or by another tool). */
  record: ExtractRecord | null;
  /** Where a tile's stored bytes lie in the data section, or null when the archive lacks it. */
  entry(tileId: number): Promise<{ offset: number; length: number } | null>;
  read(offset: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
};

const DIR_CAP = BODY_CAPS.pmtilesDirectory;

/** Opens an extract; null when the file is missing or is not a PMTiles archive. */
export async function openLocalArchive(file: string): Promise<LocalArchive | null> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch {
    return null;
  }
  const read = async (offset: number, length: number): Promise<Uint8Array> => {
    const buffer = new Uint8Array(length);
    const { bytesRead } = await handle.read(buffer, 0, length, offset);
    return buffer.subarray(0, bytesRead);
  };
  try {
    const head = await read(0, 127);
    if (!hasMagic(head)) throw new Error('not PMTiles');
    const header = parseHeader(head);
    const directory = async (offset: number, length: number): Promise<PmEntry[]> =>
      parseDirectory(decompress(await read(offset, length), header.internalCompression, DIR_CAP));
    const root = await directory(header.rootOffset, header.rootLength);
    const record = header.metadataLength
      ? recordOf(
          decompress(
            await read(header.metadataOffset, header.metadataLength),
            header.internalCompression,
            DIR_CAP,
          ),
        )
      : null;
    const leaves = new Map<number, Promise<PmEntry[]>>();
    return {
      header,
      record,
      async entry(tileId) {
        let dir = root;
        for (let depth = 0; depth < 4; depth++) {
          const e = findEntry(dir, tileId);
          if (!e) return null;
          if (e.runLength > 0) return { offset: e.offset, length: e.length };
          let leaf = leaves.get(e.offset);
          if (!leaf) {
            leaf = directory(header.leafOffset + e.offset, e.length);
            leaves.set(e.offset, leaf);
          }
          dir = await leaf;
        }
        return null;
      },
      read: (offset, length) => read(header.dataOffset + offset, length),
      close: () => handle.close(),
    };
  } catch {
    await handle.close();
    return null;
  }
}

function recordOf(raw: Uint8Array): ExtractRecord | null {
  try {
    const meta = JSON.parse(new TextDecoder().decode(raw)) as Record<string, unknown>;
    const r = meta[EXTRACT_RECORD] as Partial<ExtractRecord> | undefined;
    if (
      !r ||
      typeof r.source !== 'string' ||
      typeof r.header !== 'string' ||
      !Array.isArray(r.boxes) ||
      typeof r.maxZoom !== 'number' ||
      typeof r.minZoom !== 'number'
    )
      return null;
    return {
      source: r.source,
      etag: typeof r.etag === 'string' ? r.etag : null,
      header: r.header,
      boxes: r.boxes.filter(isBox),
      minZoom: r.minZoom,
      maxZoom: r.maxZoom,
    };
  } catch {
    return null;
  }
}

const isBox = (b: unknown): b is Box =>
  !!b &&
  typeof b === 'object' &&
  ['minLat', 'maxLat', 'minLon', 'maxLon'].every(
    (k) => typeof (b as Record<string, unknown>)[k] === 'number',
  );
