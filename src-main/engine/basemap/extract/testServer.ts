/** Test fixtures: a loopback HTTP server with range support (or not), and a generated source archive. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { COMPRESSION, TILE_TYPE, writeArchive, type TileInput } from '../../../../src-shared/pmtiles';
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
