import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BasemapProgressFields } from '../../../src-shared/basemap';
import { parseHeader } from '../../../src-shared/pmtiles';
import { EngineError } from '../errors';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { createBasemapService, type BasemapService } from './basemapService';
import { areasFileOf, createBasemapDownloads } from './download';
import { hostileArchive, serveBytes, sourceArchive, type TestServer } from './extract/testServer';

const REGION = { minLat: 41.2, maxLat: 42.6, minLon: -88.5, maxLon: -86.9 };
const AREA = { minLat: 41.85, maxLat: 41.9, minLon: -87.66, maxLon: -87.6 };
/** About 8 km north of AREA, outside its extract. */
const NORTH = { minLat: 41.94, maxLat: 41.96, minLon: -87.66, maxLon: -87.64 };
const SOURCE = sourceArchive(REGION, 15);

let server: TestServer;
let dir: TempDir;
let events: BasemapProgressFields[];
let service: BasemapService;

function build(boxes: (typeof AREA & { id?: number })[] = [AREA]): BasemapService {
  return createBasemapService({
    dataDir: dir.path,
    setting: () => ({ kind: 'none' }),
    fetch: async () => fetch,
    userAgent: 'test',
    boxes: () => boxes,
    source: () => `${server.url}`,
    emit: (p) => events.push(p),
  });
}

async function finished(): Promise<BasemapProgressFields> {
  for (let i = 0; i < 400; i++) {
    const last = events.at(-1);
    if (last && last.state !== 'running') return last;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the download did not finish');
}

beforeAll(async () => {
  server = await serveBytes(SOURCE.bytes);
});
beforeEach(async () => {
  await service?.close();
  dir?.remove();
  dir = makeTempDir('blotter-bmdl-');
  events = [];
  service = build();
});
afterAll(async () => {
  await service?.close();
  await server.close();
  dir?.remove();
});

describe('the areas basemap download', () => {
  it('estimates, downloads into <data>/basemap/areas.pmtiles (0600) and the map then draws it as vector tiles', async () => {
    expect((await service.info()).kind).toBe('none');
    const estimate = await service.downloads.estimate({});
    expect(estimate.tiles).toBeGreaterThan(16);
    expect(estimate.bytes).toBeGreaterThan(0);
    expect(estimate.freeBytes).toBeGreaterThan(0);
    expect(estimate.maxZoom).toBe(15);

    const started = await service.downloads.start({});
    expect(started.tiles).toBe(estimate.tiles);
    const end = await finished();
    expect(end.state).toBe('done');
    expect(end.tilesDone).toBe(estimate.tiles);
    expect(events.some((e) => e.state === 'running')).toBe(true);

    const file = areasFileOf(dir.path);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const info = await service.info();
    expect(info).toMatchObject({ kind: 'extract', status: 'ready', format: 'mvt', problem: null });
    // A tile of the area at z15 comes back as bytes for the renderer.
    const n = 2 ** 15;
    const x = Math.floor(((-87.63 + 180) / 360) * n);
    const lat = (41.875 * Math.PI) / 180;
    const y = Math.floor(((1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2) * n);
    const tile = await service.tile({ z: 15, x, y });
    expect(tile?.bytes.length).toBeGreaterThan(0);
  });

  it('refuses a second download while one runs in another process (the lock names its pid)', async () => {
    mkdirSync(path.join(dir.path, 'basemap'), { recursive: true });
    writeFileSync(
      path.join(dir.path, 'basemap', 'download.lock'),
      JSON.stringify({ pid: process.ppid, host: hostname() }),
    );
    await expect(service.downloads.start({})).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining(`pid ${process.ppid}`),
    });
  });

  it('takes over a lock whose process is gone', async () => {
    mkdirSync(path.join(dir.path, 'basemap'), { recursive: true });
    writeFileSync(
      path.join(dir.path, 'basemap', 'download.lock'),
      JSON.stringify({ pid: 2 ** 22 + 7, host: hostname() }),
    );
    await service.downloads.start({});
    expect((await finished()).state).toBe('done');
  });

  it('checks the free space first: no tile byte is fetched when the disk is too full', async () => {
    const downloads = createBasemapDownloads({
      dataDir: dir.path,
      boxes: () => [AREA],
      source: () => server.url,
      fetch: async () => fetch,
      emit: (p) => events.push(p),
      onLanded: () => undefined,
      freeBytes: () => 1000,
    });
    const error = await downloads.start({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('disk_full');
    expect(events).toHaveLength(0);
  });

  it('counts the source’s directories in the free-space check: room for the tiles alone is refused, nothing written', async () => {
    // Three 6 MB leaf directories over tiles of a few KB.
    const hostile = hostileArchive(AREA, 12, { leaves: 3, leafBytes: 6 * 1024 * 1024, internal: 'none' });
    const other = await serveBytes(hostile.bytes);
    try {
      const tileBytes = parseHeader(hostile.bytes).dataLength;
      let free = 2 * tileBytes + 33 * 1024 * 1024; // partial + output + the 32 MB margin, without directories
      const downloads = createBasemapDownloads({
        dataDir: dir.path,
        boxes: () => [AREA],
        source: () => other.url,
        fetch: async () => fetch,
        emit: (p) => events.push(p),
        onLanded: () => undefined,
        freeBytes: () => free,
      });
      const error = await downloads.start({}).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'disk_full' });
      expect(events).toHaveLength(0);
      expect(existsSync(`${areasFileOf(dir.path)}.partial`)).toBe(false);
      expect(other.ranges.filter((r) => r.start >= hostile.dataOffset)).toEqual([]); // no tile byte

      free += 20 * 1024 * 1024; // room for the 18 MB of directories too
      const started = await downloads.start({});
      expect(started.directoryBytes).toBeGreaterThanOrEqual(18 * 1024 * 1024);
      expect((await finished()).state).toBe('done');
      expect(statSync(areasFileOf(dir.path)).size).toBeLessThan(1024 * 1024); // the output holds tiles only
    } finally {
      await other.close();
    }
  });

  it('can be cancelled', async () => {
    await service.downloads.start({});
    expect(service.downloads.cancel()).toBe(true);
    expect((await finished()).state).toBe('cancelled');
    expect((await service.info()).kind).toBe('none');
  });

  it('offers to extend the extract to a new area it misses, then rebuilds it for all areas, downloading only the new tiles', async () => {
    expect((await service.coverage()).offerExtend).toBe(false); // no extract yet: Settings downloads
    await service.downloads.start({});
    expect((await finished()).state).toBe('done');
    const first = server.ranges.length;
    const covered = await service.coverage();
    expect(covered).toMatchObject({ source: server.url, offerExtend: false, areas: [{ covered: true }] });
    expect(covered.extract?.maxZoom).toBe(15);

    // An area about 8 km north is added: the extract does not cover it, the engine offers to extend.
    const boxes = [
      { ...AREA, id: 1 },
      { ...NORTH, id: 2 },
    ];
    await service.close();
    events = [];
    service = build(boxes);
    expect(await service.coverage()).toMatchObject({
      offerExtend: true,
      areas: [
        { areaId: 1, covered: true },
        { areaId: 2, covered: false },
      ],
    });
    const estimate = await service.downloads.estimate({});
    expect(estimate.newVersion).toBe(false);
    expect(estimate.reusedTiles).toBeGreaterThan(0);
    // The first area's tiles come from the extract already there; only the new area's are fetched.
    expect(estimate.tilesToFetch + estimate.reusedTiles!).toBe(estimate.tiles);
    expect(estimate.reusedTiles!).toBeGreaterThan(estimate.tilesToFetch);
    const before = server.ranges.length;
    expect(before).toBeGreaterThan(first); // the estimate read the header and directories only
    await service.downloads.start({});
    expect((await finished()).state).toBe('done');
    const dataOffset = parseHeader(SOURCE.bytes).dataOffset;
    const served = server.ranges
      .slice(before)
      .filter((r) => r.start >= dataOffset)
      .reduce((n, r) => n + r.end - r.start + 1, 0);
    expect(served).toBeLessThanOrEqual(estimate.bytesToFetch * 1.15);
    expect(served).toBeLessThan(estimate.bytes / 2);
    expect((await service.coverage()).offerExtend).toBe(false);
    // The rebuilt file holds both areas' tiles, each as the source has it.
    const at = (lat: number, lon: number) => {
      const n = 2 ** 15;
      const r = (lat * Math.PI) / 180;
      return {
        z: 15,
        x: Math.floor(((lon + 180) / 360) * n),
        y: Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n),
      };
    };
    expect((await service.tile(at(41.875, -87.63)))?.bytes.length).toBeGreaterThan(0);
    expect((await service.tile(at(41.95, -87.65)))?.bytes.length).toBeGreaterThan(0);
  });

  it('says "a new version" when the source changed since the extract was built, and rebuilds it whole from it', async () => {
    await service.downloads.start({});
    expect((await finished()).state).toBe('done');
    const rebuilt = sourceArchive({ ...REGION, maxLat: REGION.maxLat + 0.01 }, 15);
    server.set({ body: rebuilt.bytes, etag: '"v2"' });
    try {
      await service.close();
      events = [];
      service = build([
        { ...AREA, id: 1 },
        { ...NORTH, id: 2 },
      ]);
      const estimate = await service.downloads.estimate({});
      expect(estimate).toMatchObject({ newVersion: true, reusedTiles: 0 });
      expect(estimate.tilesToFetch).toBe(estimate.tiles); // nothing of the old build is kept
      await service.downloads.start({});
      expect((await finished()).state).toBe('done');
      expect((await service.downloads.estimate({})).newVersion).toBe(false);
    } finally {
      server.set({ body: SOURCE.bytes, etag: '"v1"' });
    }
  });

  it('does not offer to extend while the map draws the user’s own file or tile URL', async () => {
    await service.downloads.start({});
    expect((await finished()).state).toBe('done');
    const own = createBasemapService({
      dataDir: dir.path,
      setting: () => ({ kind: 'url', template: 'https://t.example.org/{z}/{x}/{y}.png', attribution: 'x' }),
      fetch: async () => fetch,
      userAgent: 'test',
      boxes: () => [AREA, NORTH],
      source: () => server.url,
    });
    expect((await own.coverage()).offerExtend).toBe(false);
    await own.close();
  });

  it('says so when there is no source or no area', async () => {
    const none = createBasemapService({
      dataDir: dir.path,
      setting: () => ({ kind: 'none' }),
      fetch: async () => fetch,
      userAgent: 'test',
      boxes: () => [],
      source: () => undefined,
    });
    await expect(none.downloads.estimate({})).rejects.toMatchObject({ code: 'bad_input' });
    await expect(none.downloads.estimate({ source: server.url })).rejects.toMatchObject({
      code: 'bad_input',
    });
    await none.close();
  });
});
