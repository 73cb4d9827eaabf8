/**
 * The basemap calls as the app makes them (engine.dispatch), against hostile PMTiles archives: one
 * served over loopback with range requests for the areas' extract, one on disk for the map.
 */
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseHeader } from '../../../src-shared/pmtiles';
import type { FetchLike } from '../api/source';
import { hostileArchive, serveBytes, type TestServer } from '../basemap/extract/testServer';
import { openEngine, type EngineFixture } from '../testing/engineFixture';

const MB = 1024 * 1024;
/** The area: a 0.4-mile circle in the Loop; the source holds tiles over part of it, zooms 0–12. */
const LOOP = { kind: 'circle' as const, lat: 41.8837, lon: -87.6289, radiusMi: 0.4 };
const BOX = { minLat: 41.88, maxLat: 41.887, minLon: -87.633, maxLon: -87.624 };

let fx: EngineFixture | undefined;
let server: TestServer | undefined;
afterEach(async () => {
  await fx?.close();
  await server?.close();
  fx = undefined;
  server = undefined;
});

/** Every file under <data>/basemap with its size (the folder may not exist). */
function basemapFiles(dataDir: string): Record<string, number> {
  const folder = path.join(dataDir, 'basemap');
  if (!existsSync(folder)) return {};
  return Object.fromEntries(readdirSync(folder).map((f) => [f, statSync(path.join(folder, f)).size]));
}

async function engineWithArea(fetchFn: FetchLike = fetch): Promise<EngineFixture> {
  const f = openEngine({ fetch: fetchFn });
  await f.call('createArea', { name: 'Loop', shape: LOOP });
  return f;
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('the call succeeded');
    },
    (e: Error & { code: string }) => ({ code: e.code, message: e.message }),
  );

describe('estimating the areas’ offline basemap', () => {
  it('counts the source’s directories in the estimate and writes nothing to disk while reading them', async () => {
    // Three leaf directories of 6 MB each (uncompressed: 18 MB on the wire) over tiles of a few KB.
    const source = hostileArchive(BOX, 12, { leaves: 3, leafBytes: 6 * MB, internal: 'none' });
    server = await serveBytes(source.bytes);
    const seen: Record<string, number>[] = [];
    let dataDir = '';
    const watching: FetchLike = (url, init) => {
      seen.push(basemapFiles(dataDir));
      return fetch(url, init);
    };
    fx = await engineWithArea(watching);
    dataDir = fx.tmp.path;
    const estimate = await fx.call<{
      bytes: number;
      bytesToFetch: number;
      directoryBytes: number;
      tiles: number;
    }>('estimateBasemapDownload', { source: server.url });

    const leaves = server.ranges.filter((r) => r.start >= source.leafOffset && r.start < source.dataOffset);
    expect(leaves).toHaveLength(3); // every leaf was read…
    expect(estimate.tiles).toBe(source.tiles);
    const tileBytes = parseHeader(source.bytes).dataLength;
    // …and counts: 18 MB of directories, not the few KB of tiles alone.
    expect(estimate.directoryBytes).toBeGreaterThanOrEqual(18 * MB);
    expect(estimate.bytes).toBeGreaterThanOrEqual(18 * MB + tileBytes);
    expect(estimate.bytesToFetch).toBeGreaterThanOrEqual(18 * MB + tileBytes);
    // Nothing was written while reading (at every request) nor after: no partial download.
    expect(seen.length).toBeGreaterThanOrEqual(4);
    for (const files of seen) expect(Object.keys(files).filter((f) => f !== 'download.lock')).toEqual([]);
    expect(basemapFiles(dataDir)).toEqual({});
  });

  it('refuses a source whose directories for one extract pass 64 MB, naming the bound, before reading them', async () => {
    // Five leaves of 14 MB: each under the 16 MB cap for one directory, 70 MB together.
    const source = hostileArchive(BOX, 12, { leaves: 5, leafBytes: 14 * MB, internal: 'none' });
    server = await serveBytes(source.bytes);
    fx = await engineWithArea();
    const refused = await failure(fx.call('estimateBasemapDownload', { source: server.url }));
    expect(refused.code).toBe('bad_response');
    expect(refused.message).toMatch(/directories these areas need come to more than 64 MB/);
    expect(refused.message).toContain(server.url);
    // Refused from the root's declared lengths: nothing was fetched but the first 16 KiB.
    expect(server.ranges).toEqual([{ start: 0, end: 16_383 }]);
    expect(basemapFiles(fx.tmp.path)).toEqual({});
    const start = await failure(fx.call('startBasemapDownload', { source: server.url }));
    expect(start).toMatchObject({ code: 'bad_response', message: expect.stringMatching(/64 MB/) });
    expect(basemapFiles(fx.tmp.path)).toEqual({});
  });

  it('counts directories decompressed too: gzip leaves small on the wire and 70 MB inflated are refused at 64 MB', async () => {
    const source = hostileArchive(BOX, 12, { leaves: 5, leafBytes: 14 * MB, internal: 'gzip' });
    expect(source.bytes.length).toBeLessThan(1 * MB);
    server = await serveBytes(source.bytes);
    fx = await engineWithArea();
    const refused = await failure(fx.call('estimateBasemapDownload', { source: server.url }));
    expect(refused.code).toBe('bad_response');
    expect(refused.message).toMatch(/more than 64 MB/);
  });

  it('a gzip bomb in a leaf directory is refused as the source’s fault, naming it, not an internal error', async () => {
    // One leaf inflates to 40 MB of zeros after its entries: 40 KB on the wire.
    const source = hostileArchive(BOX, 12, { leaves: 1, leafBytes: 40 * MB, internal: 'gzip' });
    server = await serveBytes(source.bytes);
    fx = await engineWithArea();
    const refused = await failure(fx.call('estimateBasemapDownload', { source: server.url }));
    expect(refused.code).toBe('bad_response');
    expect(refused.message).toMatch(/A leaf directory of .* decompresses to more than 16 MB/);
    expect(refused.message).toMatch(/gzip bomb/);
  });
});

describe('drawing tiles from a PMTiles file', () => {
  it('a gzip bomb in a tile or in a leaf directory is answered bad_response naming it; other tiles still draw', async () => {
    fx = openEngine();
    const z = 12;
    const n = 2 ** z;
    const x = Math.floor(((-87.63 + 180) / 360) * n);
    const r = (41.883 * Math.PI) / 180;
    const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
    // A tile of 64 KB on disk that inflates to 64 MB (the cap for one tile is 4 MB).
    const tileBomb = hostileArchive(BOX, 12, {
      leaves: 2,
      leafBytes: 0,
      internal: 'gzip',
      bombTiles: [{ z, x, y }],
      bombBytes: 64 * MB,
    });
    const file = path.join(fx.tmp.path, 'streets.pmtiles');
    writeFileSync(file, tileBomb.bytes);
    await fx.call('updateSettings', { basemap: { kind: 'file', path: file } });
    expect(await fx.call('getBasemapInfo', {})).toMatchObject({ status: 'ready', format: 'mvt' });
    const bomb = await failure(fx.call('getBasemapTile', { z, x, y }));
    expect(bomb.code).toBe('bad_response');
    expect(bomb.message).toMatch(
      new RegExp(`The tile ${z}/${x}/${y} of .* decompresses to larger than 4 MB`),
    );
    const fine = await fx.call<{ bytes: Uint8Array }>('getBasemapTile', { z: 0, x: 0, y: 0 });
    expect(new TextDecoder().decode(fine.bytes)).toBe('tile 0/0/0');

    // A leaf directory that inflates to 40 MB: the root opens, the tiles under that leaf are refused.
    const leafBomb = hostileArchive(BOX, 12, { leaves: 1, leafBytes: 40 * MB, internal: 'gzip' });
    const other = path.join(fx.tmp.path, 'other.pmtiles');
    writeFileSync(other, leafBomb.bytes);
    await fx.call('updateSettings', { basemap: { kind: 'file', path: other } });
    const leaf = await failure(fx.call('getBasemapTile', { z, x, y }));
    expect(leaf.code).toBe('bad_response');
    expect(leaf.message).toMatch(/A leaf directory of .* decompresses to larger than 16 MB/);
  });
});
