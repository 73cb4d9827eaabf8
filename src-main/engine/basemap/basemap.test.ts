import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BasemapSetting } from '../../../src-shared/basemap';
import type { FetchLike } from '../api/source';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { createBasemapService } from './basemapService';
import { cacheDirectives, freshness } from './cachePolicy';
import { openMbtiles } from './mbtiles';
import { openOnlineTiles, tileUrl } from './onlineTiles';
import { zxyToTileId } from 'pmtiles';
import { openPmtiles } from './pmtilesFile';
import { tileIdOf } from './pmtilesFormat';
import { openTileCache } from './tileCache';
import { sniffFormat } from './tileFormat';
import { pngTile, writeMbtiles, writePmtiles } from './testTiles';

let dir: TempDir;
beforeEach(() => {
  dir = makeTempDir('blotter-basemap-');
});
afterEach(() => dir.remove());

const TILES = [
  { z: 0, x: 0, y: 0, bytes: pngTile(1) },
  { z: 1, x: 0, y: 0, bytes: pngTile(2) },
  { z: 1, x: 1, y: 0, bytes: pngTile(3) },
  { z: 2, x: 1, y: 3, bytes: pngTile(4) },
];

describe('tile formats', () => {
  it('sniffs raster images and gzip (vector) tiles', () => {
    expect(sniffFormat(pngTile(0))).toBe('png');
    expect(sniffFormat(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffFormat(new Uint8Array([0x1f, 0x8b, 8]))).toBe('mvt');
    expect(sniffFormat(new Uint8Array([1, 2]))).toBe('unknown');
  });
});

describe('MBTiles', () => {
  it('reads metadata and flips XYZ y to TMS rows', async () => {
    const file = path.join(dir.path, 'streets.mbtiles');
    writeMbtiles(file, TILES, {
      name: 'Streets',
      format: 'png',
      attribution: '© Someone',
      minzoom: '0',
      maxzoom: '2',
    });
    const source = openMbtiles(file);
    expect(await source.info()).toMatchObject({
      name: 'Streets',
      format: 'png',
      minZoom: 0,
      maxZoom: 2,
      attribution: '© Someone',
    });
    const tile = await source.tile({ z: 2, x: 1, y: 3 });
    expect(tile?.contentType).toBe('image/png');
    expect(tile?.bytes.at(-1)).toBe(4);
    expect(await source.tile({ z: 2, x: 1, y: 0 })).toBeNull();
    await source.close();
  });
});

describe('PMTiles', () => {
  it('numbers tiles along the Hilbert curve as the reference library does', () => {
    for (const [z, x, y] of [
      [0, 0, 0],
      [1, 1, 0],
      [3, 5, 2],
      [12, 1234, 3012],
      [18, 200000, 100000],
    ] as const) {
      expect(tileIdOf(z, x, y)).toBe(zxyToTileId(z, x, y));
    }
  });

  it('reads the header, metadata and tiles by z/x/y from a file', async () => {
    const file = path.join(dir.path, 'streets.pmtiles');
    writePmtiles(file, TILES, { name: 'Tiny', attribution: '© Tiny maps' });
    const source = await openPmtiles(file);
    expect(await source.info()).toMatchObject({
      name: 'Tiny',
      attribution: '© Tiny maps',
      format: 'png',
      minZoom: 0,
      maxZoom: 2,
    });
    for (const t of TILES) expect((await source.tile(t))?.bytes.at(-1)).toBe(t.bytes.at(-1));
    expect(await source.tile({ z: 2, x: 0, y: 0 })).toBeNull();
    await source.close();
  });
});

describe('the basemap service', () => {
  const service = (setting: BasemapSetting, fetch: FetchLike) =>
    createBasemapService({
      dataDir: dir.path,
      setting: () => setting,
      fetch: async () => fetch,
      userAgent: 'Blotter/test',
    });
  const noFetch: FetchLike = () => {
    throw new Error('nothing may be fetched');
  };

  it('with no basemap configured, opens nothing and fetches nothing', async () => {
    const s = service({ kind: 'none' }, noFetch);
    expect(await s.info()).toMatchObject({ kind: 'none', status: 'none', problem: null });
    expect(await s.tile({ z: 0, x: 0, y: 0 })).toBeNull();
    await s.close();
  });

  it('says in plain words when the file is missing, and opens a vector file for the renderer to draw', async () => {
    const missing = service({ kind: 'file', path: path.join(dir.path, 'nope.mbtiles') }, noFetch);
    expect((await missing.info()).problem).toMatch(/There is no file at/);
    const vector = path.join(dir.path, 'vector.pmtiles');
    writePmtiles(vector, [{ z: 0, x: 0, y: 0, bytes: new Uint8Array([0x1f, 0x8b, 8, 0]) }], {}, 1);
    const v = service({ kind: 'file', path: vector }, noFetch);
    expect(await v.info()).toMatchObject({ status: 'ready', format: 'mvt', problem: null });
    expect((await v.tile({ z: 0, x: 0, y: 0 }))?.bytes[0]).toBe(0x1f);
    await v.close();
  });

  it('serves tiles of a raster file', async () => {
    const file = path.join(dir.path, 'streets.mbtiles');
    writeMbtiles(file, TILES, { format: 'png' });
    const s = service({ kind: 'file', path: file }, noFetch);
    expect(await s.info()).toMatchObject({ kind: 'file', status: 'ready' });
    expect((await s.tile({ z: 1, x: 1, y: 0 }))?.bytes.at(-1)).toBe(3);
    await s.close();
  });
});

describe('cache policy', () => {
  const headers = (h: Record<string, string>) => (name: string) => h[name] ?? null;
  it('reads Cache-Control, Expires and Last-Modified', () => {
    expect(cacheDirectives('public, max-age=60, no-transform').get('max-age')).toBe('60');
    expect(freshness(headers({ 'cache-control': 'max-age=60' }), 0)).toEqual({
      store: true,
      freshForMs: 60_000,
    });
    expect(freshness(headers({ 'cache-control': 'max-age=60', age: '20' }), 0).freshForMs).toBe(40_000);
    expect(freshness(headers({ 'cache-control': 'no-store' }), 0).store).toBe(false);
    expect(freshness(headers({ 'cache-control': 'no-cache' }), 0)).toEqual({ store: true, freshForMs: 0 });
    const date = 'Tue, 01 Apr 2025 00:00:00 GMT';
    expect(freshness(headers({ date, expires: 'Tue, 01 Apr 2025 02:00:00 GMT' }), 0).freshForMs).toBe(
      7_200_000,
    );
    expect(freshness(headers({ date, 'last-modified': 'Mon, 31 Mar 2025 14:00:00 GMT' }), 0).freshForMs).toBe(
      3_600_000,
    );
  });
});

describe('online tiles through the cache (loopback server)', () => {
  let server: Server;
  let base = '';
  const seen: { url: string; inm: string | undefined; ua: string | undefined }[] = [];
  let maxAge = 60;

  beforeEach(async () => {
    seen.length = 0;
    server = createServer((req, res) => {
      seen.push({
        url: req.url ?? '',
        inm: req.headers['if-none-match'] as string | undefined,
        ua: req.headers['user-agent'],
      });
      if (req.url === '/0/0/1.png') return void res.writeHead(404).end();
      if (req.headers['if-none-match'] === '"v1"') {
        return void res.writeHead(304, { 'Cache-Control': `max-age=${maxAge}`, ETag: '"v1"' }).end();
      }
      res.writeHead(200, { 'Content-Type': 'image/png', 'Cache-Control': `max-age=${maxAge}`, ETag: '"v1"' });
      res.end(Buffer.from(pngTile(9)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('fetches only the tile asked for, keeps it while fresh, then revalidates with its ETag', async () => {
    let now = 1_000_000;
    const cache = openTileCache(path.join(dir.path, 'tile-cache.sqlite'));
    const online = openOnlineTiles({
      template: `${base}/{z}/{x}/{y}.png`,
      attribution: '© Test tiles',
      cache,
      fetch: async () => (url, init) => fetch(url, init),
      userAgent: 'Blotter/test (tiles viewed only)',
      now: () => now,
    });
    const first = await online.tile({ z: 3, x: 2, y: 1 });
    expect(first?.bytes.at(-1)).toBe(9);
    expect(seen).toEqual([{ url: '/3/2/1.png', inm: undefined, ua: 'Blotter/test (tiles viewed only)' }]);

    now += 30_000; // fresh: from the cache, no request
    expect((await online.tile({ z: 3, x: 2, y: 1 }))?.bytes.at(-1)).toBe(9);
    expect(seen).toHaveLength(1);

    now += 60_000; // stale: revalidated, 304, bytes from the cache
    expect((await online.tile({ z: 3, x: 2, y: 1 }))?.bytes.at(-1)).toBe(9);
    expect(seen).toHaveLength(2);
    expect(seen[1]?.inm).toBe('"v1"');

    expect(await online.tile({ z: 0, x: 0, y: 1 })).toBeNull();
    expect(online.stats?.()).toEqual({ tiles: 1, bytes: pngTile(9).length });
    await online.close();
  });

  it('serves a stale tile when the server is gone, and says so when it has none', async () => {
    let now = 0;
    const cache = openTileCache(path.join(dir.path, 'tile-cache.sqlite'));
    const online = openOnlineTiles({
      template: `${base}/{z}/{x}/{y}.png`,
      attribution: 'x',
      cache,
      fetch: async () => (url, init) => fetch(url, init),
      userAgent: 'Blotter/test',
      now: () => now,
    });
    maxAge = 1;
    await online.tile({ z: 1, x: 0, y: 0 });
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server.listen(0); // keep afterEach's close harmless
    now += 10_000;
    expect((await online.tile({ z: 1, x: 0, y: 0 }))?.bytes.at(-1)).toBe(9);
    await expect(online.tile({ z: 1, x: 1, y: 1 })).rejects.toThrow(/could not be reached/);
    await online.close();
  });

  it('builds tile URLs from the template', () => {
    expect(tileUrl('https://{s}.t.example/{z}/{x}/{y}{r}.png', { z: 3, x: 1, y: 2 })).toBe(
      'https://a.t.example/3/1/2.png',
    );
  });
});
