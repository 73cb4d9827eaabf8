/**
 * A PMTiles v3 writer: tiles go in ascending tile id order (so the archive is clustered), identical
 * contents are stored once (later entries point back to the first copy; consecutive ids with the same
 * content become one run), and `finish` lays out header, root directory, JSON metadata and leaf
 * directories — split into leaves only when the root would not fit in the first 16 KiB. Tile data
 * follows the returned head: in memory (`data()`), or streamed by the caller through `sink`.
 */
import { encodeDirectory, type PmEntry } from './directory';
import {
  COMPRESSION,
  encodeHeader,
  HEADER_BYTES,
  ROOT_LIMIT,
  tileIdOf,
  zxyOf,
  type PmHeader,
} from './format';

/** Compresses a directory or the metadata; `kind` is what the header records (COMPRESSION.gzip…). */
export type InternalCompressor = { kind: number; compress: (bytes: Uint8Array) => Uint8Array };

export type WriterOptions = {
  /**
   * Receives each new tile content, in order, as it is stored (the tile data section). Without a
   * sink the writer keeps the data and `data()` returns it.
   */
  sink?: (bytes: Uint8Array) => void;
};

export type FinishOptions = {
  tileType: number;
  /** How the tile bytes given to `add` are compressed (COMPRESSION.gzip for Protomaps MVT). */
  tileCompression: number;
  metadata: object;
  /** Directories and metadata compressed with this; default none. */
  internal?: InternalCompressor;
  /** [minLon, minLat, maxLon, maxLat]; default the whole Web Mercator world. */
  bounds?: [number, number, number, number];
  center?: { lon: number; lat: number; zoom: number };
  /** Default: the zooms of the first and last tiles added. */
  minZoom?: number;
  maxZoom?: number;
};

export type Finished = {
  /** Header + root directory + metadata + leaf directories; tile data (`dataLength` bytes) follows. */
  head: Uint8Array;
  header: PmHeader;
};

/** A quick content key: length and two 32-bit hashes (FNV-1a and a multiplicative one). */
export function contentKey(bytes: Uint8Array): string {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i] as number;
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return `${bytes.length}:${(a >>> 0).toString(36)}:${(b >>> 0).toString(36)}`;
}

const sameBytes = (x: Uint8Array, y: Uint8Array) => x.length === y.length && x.every((v, i) => v === y[i]);

export class PmtilesWriter {
  private readonly entries: PmEntry[] = [];
  private readonly stored = new Map<string, { offset: number; length: number; bytes?: Uint8Array }>();
  private readonly chunks: Uint8Array[] = [];
  private readonly sink: ((bytes: Uint8Array) => void) | undefined;
  private lastId = -1;
  private addressed = 0;
  private contents = 0;
  dataLength = 0;

  constructor(opts: WriterOptions = {}) {
    this.sink = opts.sink;
  }

  /**
   * Adds a tile. Ids must ascend. `key` names the content for deduplication (a strong digest, or
   * the source's offset when copying an archive); by default a quick hash, checked byte for byte
   * when the writer keeps the data.
   */
  add(tileId: number, bytes: Uint8Array, key: string = contentKey(bytes)): void {
    if (tileId <= this.lastId) throw new Error(`tiles must be added in ascending tile id order (${tileId})`);
    this.lastId = tileId;
    this.addressed++;
    let hit = this.stored.get(key);
    if (hit && hit.bytes && !sameBytes(hit.bytes, bytes)) hit = undefined; // a hash collision
    const last = this.entries[this.entries.length - 1];
    if (hit) {
      if (last && last.offset === hit.offset && last.tileId + last.runLength === tileId) {
        last.runLength++;
      } else {
        this.entries.push({ tileId, offset: hit.offset, length: hit.length, runLength: 1 });
      }
      return;
    }
    const offset = this.dataLength;
    if (this.sink) this.sink(bytes);
    else this.chunks.push(bytes);
    this.dataLength += bytes.length;
    this.contents++;
    this.stored.set(key, { offset, length: bytes.length, ...(this.sink ? {} : { bytes }) });
    this.entries.push({ tileId, offset, length: bytes.length, runLength: 1 });
  }

  /** The tile data section, when no sink was given. */
  data(): Uint8Array {
    return concat(this.chunks, this.dataLength);
  }

  finish(opts: FinishOptions): Finished {
    const first = this.entries[0];
    const last = this.entries[this.entries.length - 1];
    if (!first || !last) throw new Error('an archive needs at least one tile');
    const internal = opts.internal ?? { kind: COMPRESSION.none, compress: (b: Uint8Array) => b };
    const { root, leaves } = buildDirectories(this.entries, internal.compress);
    const metadata = internal.compress(new TextEncoder().encode(JSON.stringify(opts.metadata)));
    const minZoom = opts.minZoom ?? zxyOf(first.tileId).z;
    const maxZoom = opts.maxZoom ?? zxyOf(last.tileId + last.runLength - 1).z;
    const bounds = opts.bounds ?? [-180, -85.0511287, 180, 85.0511287];
    const center = opts.center ?? {
      lon: (bounds[0] + bounds[2]) / 2,
      lat: (bounds[1] + bounds[3]) / 2,
      zoom: minZoom,
    };
    const header: PmHeader = {
      rootOffset: HEADER_BYTES,
      rootLength: root.length,
      metadataOffset: HEADER_BYTES + root.length,
      metadataLength: metadata.length,
      leafOffset: HEADER_BYTES + root.length + metadata.length,
      leafLength: leaves.length,
      dataOffset: HEADER_BYTES + root.length + metadata.length + leaves.length,
      dataLength: this.dataLength,
      addressedTiles: this.addressed,
      tileEntries: this.entries.length,
      tileContents: this.contents,
      clustered: true,
      internalCompression: internal.kind,
      tileCompression: opts.tileCompression,
      tileType: opts.tileType,
      minZoom,
      maxZoom,
      bounds,
      centerZoom: center.zoom,
      centerLon: center.lon,
      centerLat: center.lat,
    };
    const head = concat([encodeHeader(header), root, metadata, leaves], header.dataOffset);
    return { head, header };
  }
}

/**
 * Root only when it fits in the first 16 KiB with the header; else leaves of `leafSize` entries
 * (from 4096, ×1.2 until the root of leaf pointers fits), as the reference implementations do.
 */
export function buildDirectories(
  entries: readonly PmEntry[],
  compress: (bytes: Uint8Array) => Uint8Array,
): { root: Uint8Array; leaves: Uint8Array } {
  const limit = ROOT_LIMIT - HEADER_BYTES;
  if (entries.length < 16_384) {
    const root = compress(encodeDirectory(entries));
    if (root.length <= limit) return { root, leaves: new Uint8Array(0) };
  }
  for (let leafSize = 4096; ; leafSize = Math.ceil(leafSize * 1.2)) {
    const pointers: PmEntry[] = [];
    const parts: Uint8Array[] = [];
    let offset = 0;
    for (let i = 0; i < entries.length; i += leafSize) {
      const leaf = entries.slice(i, i + leafSize);
      const bytes = compress(encodeDirectory(leaf));
      pointers.push({ tileId: (leaf[0] as PmEntry).tileId, offset, length: bytes.length, runLength: 0 });
      parts.push(bytes);
      offset += bytes.length;
    }
    const root = compress(encodeDirectory(pointers));
    if (root.length <= limit) return { root, leaves: concat(parts, offset) };
  }
}

function concat(parts: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export type TileInput = { z: number; x: number; y: number; bytes: Uint8Array };

/** A whole archive in memory (tiles in any order): head and tile data together. */
export function writeArchive(tiles: readonly TileInput[], opts: FinishOptions): Uint8Array {
  const writer = new PmtilesWriter();
  const sorted = tiles
    .map((t) => ({ id: tileIdOf(t.z, t.x, t.y), bytes: t.bytes }))
    .sort((a, b) => a.id - b.id);
  for (const t of sorted) writer.add(t.id, t.bytes);
  const { head } = writer.finish(opts);
  return concat([head, writer.data()], head.length + writer.dataLength);
}
