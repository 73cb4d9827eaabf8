/** Test fixtures: a loopback HTTP server with range support (or not), and a generated source archive. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import {
  COMPRESSION,
  encodeDirectory,
  encodeHeader,
  TILE_TYPE,
  tileIdOf,
  writeArchive,
  type PmEntry,
  type TileInput,
} from '../../../../src-shared/pmtiles';
import { tileX, tileY } from './tileSet';

export type ServedRange = { start: number; end: number };

export type TestServer = {
  url: string;
  /** Every range served (inclusive ends), in order. */
  ranges: ServedRange[];
  set(opts: { body?: Uint8Array; etag?: string | null; ranges?: boolean }): void;
  close(): Promise<void>;
};

export async function serveBytes(body: Uint8Array, etag: string | null = '"v1"'): Promise<TestServer> {
  const state = { body, etag, ranges: true };
  const ranges: ServedRange[] = [];
  const server: Server = createServer((req, res) => {
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (state.etag) res.setHeader('ETag', state.etag);
    if (!state.ranges || !m) {
      res.writeHead(200, { 'Content-Length': state.body.length });
      res.end(Buffer.from(state.body));
      return;
    }
    const start = Number(m[1]);
    const end = Math.min(Number(m[2]), state.body.length - 1);
    if (start >= state.body.length) {
      res.writeHead(416, { 'Content-Range': `bytes */${state.body.length}` });
      res.end();
      return;
    }
    ranges.push({ start, end });
    res.writeHead(206, {
      'Content-Range': `bytes ${start}-${end}/${state.body.length}`,
      'Content-Length': end - start + 1,
    });
    res.end(Buffer.from(state.body.subarray(start, end + 1)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/city.pmtiles`,
    ranges,
    set(o) {
      if (o.body) state.body = o.body;
      if (o.etag !== undefined) state.etag = o.etag;
      if (o.ranges !== undefined) state.ranges = o.ranges;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A source archive over a box: every tile on zooms 0..maxZoom, gzipped unique bytes, except that a
 * quarter of the top-zoom tiles share one "ocean" content (so runs and shared contents occur).
 */
export function sourceArchive(
  box: { minLat: number; maxLat: number; minLon: number; maxLon: number },
  maxZoom: number,
  /** Tiles of about this many bytes (gzip magic + noise) instead of small real gzip members. */
  tileSize?: number,
): { bytes: Uint8Array; tiles: TileInput[] } {
  const tiles: TileInput[] = [];
  const ocean = new Uint8Array(gzipSync(Buffer.from('ocean'.repeat(40))));
  for (let z = 0; z <= maxZoom; z++) {
    for (let x = tileX(box.minLon, z); x <= tileX(box.maxLon, z); x++) {
      for (let y = tileY(box.maxLat, z); y <= tileY(box.minLat, z); y++) {
        const unique = tileSize
          ? noiseTile(tileSize * (0.25 + (((x * 7919 + y * 104729) % 1000) / 1000) * 1.5), x * 31 + y)
          : new Uint8Array(gzipSync(Buffer.from(`tile ${z}/${x}/${y} `.repeat(1 + ((x * 7 + y) % 9)))));
        tiles.push({ z, x, y, bytes: z === maxZoom && x % 4 === 0 ? ocean : unique });
      }
    }
  }
  const bytes = writeArchive(tiles, {
    tileType: TILE_TYPE.mvt,
    tileCompression: COMPRESSION.gzip,
    metadata: { name: 'test city', attribution: '© OpenStreetMap contributors' },
    internal: { kind: COMPRESSION.gzip, compress: (b) => new Uint8Array(gzipSync(b)) },
    bounds: [box.minLon, box.minLat, box.maxLon, box.maxLat],
  });
  return { bytes, tiles };
}

/** Bytes that start like gzip and are otherwise noise (the extractor copies tiles verbatim). */
function noiseTile(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(Math.max(20, Math.round(size)));
  let h = seed * 2654435761;
  for (let i = 0; i < out.length; i++) {
    h = Math.imul(h ^ (h >>> 13), 0x5bd1e995) + i;
    out[i] = h & 0xff;
  }
  out[0] = 0x1f;
  out[1] = 0x8b;
  return out;
}

export type HostileOptions = {
  /** Leaf directories the tiles are split into (in tile-id order). */
  leaves: number;
  /**
   * Each leaf's bytes before compression: its entries, then zeros (a reader stops after the
   * entries, so the archive stays valid). With internal gzip the zeros shrink to almost nothing
   * on the wire and only decompressed are they large.
   */
  leafBytes: number;
  internal: 'none' | 'gzip';
  /** These tiles (by z/x/y) are gzip bombs: small on disk, `bombBytes` of zeros decompressed. */
  bombTiles?: { z: number; x: number; y: number }[];
  bombBytes?: number;
};

/**
 * An archive a hostile or careless server might offer, written by hand: every tile on zooms
 * 0..maxZoom over the box (small gzip members), split into `leaves` leaf directories padded to
 * `leafBytes`, optionally with gzip-bomb tiles. Root directory right after the header.
 */
export function hostileArchive(
  box: { minLat: number; maxLat: number; minLon: number; maxLon: number },
  maxZoom: number,
  opts: HostileOptions,
): { bytes: Uint8Array; tiles: number; leafOffset: number; dataOffset: number } {
  const bombs = new Set((opts.bombTiles ?? []).map((t) => tileIdOf(t.z, t.x, t.y)));
  const bomb = bombs.size > 0 ? new Uint8Array(gzipSync(Buffer.alloc(opts.bombBytes ?? 0))) : null;
  const tiles: { id: number; bytes: Uint8Array }[] = [];
  for (let z = 0; z <= maxZoom; z++) {
    for (let x = tileX(box.minLon, z); x <= tileX(box.maxLon, z); x++) {
      for (let y = tileY(box.maxLat, z); y <= tileY(box.minLat, z); y++) {
        const id = tileIdOf(z, x, y);
        const bytes =
          bomb && bombs.has(id) ? bomb : new Uint8Array(gzipSync(Buffer.from(`tile ${z}/${x}/${y}`)));
        tiles.push({ id, bytes });
      }
    }
  }
  tiles.sort((a, b) => a.id - b.id);
  let at = 0;
  const entries: PmEntry[] = tiles.map((t) => {
    const e = { tileId: t.id, offset: at, length: t.bytes.length, runLength: 1 };
    at += t.bytes.length;
    return e;
  });
  const pack = (raw: Uint8Array): Uint8Array =>
    opts.internal === 'gzip' ? new Uint8Array(gzipSync(raw)) : raw;
  const per = Math.ceil(entries.length / opts.leaves);
  const leafParts: Uint8Array[] = [];
  const root: PmEntry[] = [];
  let leafAt = 0;
  for (let i = 0; i < opts.leaves; i++) {
    const group = entries.slice(i * per, (i + 1) * per);
    if (group.length === 0) break;
    const dir = encodeDirectory(group);
    const raw = new Uint8Array(Math.max(dir.length, opts.leafBytes));
    raw.set(dir);
    const stored = pack(raw);
    root.push({ tileId: group[0]!.tileId, offset: leafAt, length: stored.length, runLength: 0 });
    leafParts.push(stored);
    leafAt += stored.length;
  }
  const rootBytes = pack(encodeDirectory(root));
  const metadata = pack(new TextEncoder().encode(JSON.stringify({ name: 'hostile' })));
  const leafOffset = 127 + rootBytes.length + metadata.length;
  const dataOffset = leafOffset + leafAt;
  const data = Buffer.concat(tiles.map((t) => Buffer.from(t.bytes)));
  const header = encodeHeader({
    rootOffset: 127,
    rootLength: rootBytes.length,
    metadataOffset: 127 + rootBytes.length,
    metadataLength: metadata.length,
    leafOffset,
    leafLength: leafAt,
    dataOffset,
    dataLength: data.length,
    addressedTiles: tiles.length,
    tileEntries: tiles.length,
    tileContents: tiles.length,
    clustered: true,
    internalCompression: opts.internal === 'gzip' ? COMPRESSION.gzip : COMPRESSION.none,
    tileCompression: COMPRESSION.gzip,
    tileType: TILE_TYPE.mvt,
    minZoom: 0,
    maxZoom,
    bounds: [box.minLon, box.minLat, box.maxLon, box.maxLat],
    centerZoom: 0,
    centerLon: (box.minLon + box.maxLon) / 2,
    centerLat: (box.minLat + box.maxLat) / 2,
  });
  const bytes = new Uint8Array(
    Buffer.concat([header, rootBytes, metadata, ...leafParts.map((p) => Buffer.from(p)), data]),
  );
  return { bytes, tiles: tiles.length, leafOffset, dataOffset };
}
