/**
 * The online tile URL is not a way to read arbitrary addresses back into the page (issue 11, item 4):
 * https or literal loopback only, no redirect to another origin, at most 4 MB a tile, and only
 * bytes that are a tile (PNG, JPEG, WebP, vector tile) are returned — typed by their bytes.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { createBasemapService } from './basemapService';
import { openOnlineTiles } from './onlineTiles';
import { COMPRESSION, decompress } from './pmtilesFormat';
import { pngTile } from './testTiles';
import { openTileCache } from './tileCache';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r))))));

async function serve(
  answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ base: string; heard: string[] }> {
  const heard: string[] = [];
  const server = createServer((req, res) => {
    heard.push(req.url ?? '');
    answer(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, heard };
}

let dir: TempDir;
beforeEach(() => (dir = makeTempDir()));
afterEach(() => dir.remove());

function online(base: string) {
  return openOnlineTiles({
    template: `${base}/{z}/{x}/{y}`,
    attribution: '',
    cache: openTileCache(path.join(dir.path, 'tile-cache.sqlite')),
    fetch: async () => (url, init) => fetch(url, init),
    userAgent: 'Blotter/test',
  });
}

const PAGE = Buffer.from('<!doctype html><title>Router admin</title><p>secret page</p>');

describe('online tiles are checked before they reach the page', () => {
  it('refuses an HTML page or JSON even when the server calls it image/png, and keeps nothing', async () => {
    const { base } = await serve((req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Cache-Control': 'max-age=600' });
      res.end(req.url === '/1/0/0' ? PAGE : Buffer.from('{"internal":"metadata"}'));
    });
    const tiles = online(base);
    await expect(tiles.tile({ z: 1, x: 0, y: 0 })).rejects.toThrow(/not a map tile/);
    await expect(tiles.tile({ z: 1, x: 1, y: 0 })).rejects.toThrow(/not a map tile/);
    expect(tiles.stats?.()).toEqual({ tiles: 0, bytes: 0 });
    await tiles.close();
  });

  it('types a tile by its bytes, not by the header, and accepts vector tiles (gzip or raw)', async () => {
    const raw = new Uint8Array([0x1a, 0x05, 0x0a, 0x03, 0x72, 0x6f, 0x61]); // layers { name: "roa" }
    const { base } = await serve((req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      if (req.url === '/2/0/0') return void res.end(Buffer.from(pngTile(4)));
      if (req.url === '/2/1/0') return void res.end(gzipSync(raw));
      res.end(Buffer.from(raw));
    });
    const tiles = online(base);
    expect(await tiles.tile({ z: 2, x: 0, y: 0 })).toMatchObject({ contentType: 'image/png' });
    expect(await tiles.tile({ z: 2, x: 1, y: 0 })).toMatchObject({
      contentType: 'application/vnd.mapbox-vector-tile',
    });
    expect(await tiles.tile({ z: 2, x: 2, y: 0 })).toMatchObject({
      contentType: 'application/vnd.mapbox-vector-tile',
    });
    await tiles.close();
  });

  it('stops reading a tile past 4 MB', async () => {
    const { base } = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.write(Buffer.from(pngTile(1)));
      const chunk = Buffer.alloc(64 * 1024);
      let sent = 0;
      const pump = (): void => {
        while (sent < 200 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => (sent = Infinity));
      pump();
    });
    const tiles = online(base);
    await expect(tiles.tile({ z: 0, x: 0, y: 0 })).rejects.toThrow(/The map tile was larger than 4 MB/);
    await tiles.close();
  });

  it('does not follow a redirect to another origin', async () => {
    const inner = await serve((_req, res) => res.end(Buffer.from(pngTile(2))));
    const outer = await serve((req, res) =>
      res.writeHead(302, { Location: `${inner.base}${req.url}` }).end(),
    );
    const tiles = online(outer.base);
    await expect(tiles.tile({ z: 0, x: 0, y: 0 })).rejects.toThrow(
      /redirected the request to another address/,
    );
    expect(inner.heard).toEqual([]);
    await tiles.close();
  });

  it('refuses a plain-http tile URL off loopback: the basemap says why and fetches nothing', async () => {
    const service = createBasemapService({
      dataDir: dir.path,
      setting: () => ({
        kind: 'url',
        template: 'http://192.168.1.1/{z}/{x}/{y}.png',
        attribution: '',
      }),
      fetch: async () => {
        throw new Error('nothing may be fetched');
      },
      userAgent: 'Blotter/test',
    });
    const info = await service.info();
    expect(info).toMatchObject({ status: 'error' });
    expect(info.problem).toMatch(/must start with https:\/\//);
    // A tile download never carries the API key: the refusal names the tile-source rule.
    expect(info.problem).toMatch(/map tile source/);
    expect(info.problem).not.toMatch(/API key/);
    expect(await service.tile({ z: 0, x: 0, y: 0 })).toBeNull();
    await service.close();
  });
});

describe('PMTiles parts are capped after decompression', () => {
  it('refuses a directory that inflates past 16 MB (a gzip bomb), and reads one under it', () => {
    const bomb = gzipSync(Buffer.alloc(17 * 1024 * 1024));
    expect(() => decompress(bomb, COMPRESSION.gzip, 16 * 1024 * 1024)).toThrow(/larger than 16 MB/);
    expect(decompress(gzipSync(Buffer.alloc(1024)), COMPRESSION.gzip, 16 * 1024 * 1024).byteLength).toBe(
      1024,
    );
  });
});
