import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PMTiles, type RangeResponse, type Source } from 'pmtiles';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BasemapSourceUrl } from '../../../../src-shared/basemap';
import { parseDirectory, parseHeader, tileIdOf, zxyOf, type PmEntry } from '../../../../src-shared/pmtiles';
import { makeTempDir, type TempDir } from '../../testing/tempDir';
import { coalesce } from './coalesce';
import { extractBasemap, partialFileOf, prepareExtract, type ExtractProgress } from './extract';
import { hostileArchive, serveBytes, sourceArchive, type TestServer } from './testServer';
import { withMargin } from './tileSet';

const REGION = { minLat: 41.2, maxLat: 42.6, minLon: -88.5, maxLon: -86.9 };
const AREA = { minLat: 41.85, maxLat: 41.9, minLon: -87.66, maxLon: -87.6 };
const MAX_ZOOM = 15;

let source: { bytes: Uint8Array; tiles: { z: number; x: number; y: number; bytes: Uint8Array }[] };
let server: TestServer;
let dir: TempDir;
let out: string;

beforeAll(() => {
  source = sourceArchive(REGION, MAX_ZOOM);
});
beforeEach(async () => {
  await server?.close();
  server = await serveBytes(source.bytes);
  dir?.remove();
  dir = makeTempDir('blotter-extract-');
  out = path.join(dir.path, 'areas.pmtiles');
});
afterAll(async () => {
  await server?.close();
  dir?.remove();
});

/** Tile bounds in degrees; true when the tile meets the box. */
function tileMeets(z: number, x: number, y: number, b: typeof AREA): boolean {
  const n = 2 ** z;
  const lon = (i: number) => (i / n) * 360 - 180;
  const lat = (j: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * j) / n))) * 180) / Math.PI;
  return lon(x) <= b.maxLon && lon(x + 1) >= b.minLon && lat(y + 1) <= b.maxLat && lat(y) >= b.minLat;
}

/** Raw tile bytes by id, walking the archive's directories (root and leaves). */
function rawTiles(bytes: Uint8Array): Map<number, Uint8Array> {
  const h = parseHeader(bytes);
  const out = new Map<number, Uint8Array>();
  const walk = (entries: PmEntry[]) => {
    for (const e of entries) {
      if (e.runLength === 0) {
        const at = h.leafOffset + e.offset;
        walk(parseDirectory(gunzipSync(bytes.subarray(at, at + e.length))));
      } else {
        for (let k = 0; k < e.runLength; k++) {
          out.set(e.tileId + k, bytes.subarray(h.dataOffset + e.offset, h.dataOffset + e.offset + e.length));
        }
      }
    }
  };
  walk(parseDirectory(gunzipSync(bytes.subarray(h.rootOffset, h.rootOffset + h.rootLength))));
  return out;
}

function library(bytes: Uint8Array): PMTiles {
  const src: Source = {
    getKey: () => 'out',
    getBytes: async (offset: number, length: number): Promise<RangeResponse> => ({
      data: bytes.slice(offset, offset + length).buffer,
    }),
  };
  return new PMTiles(src);
}

const dataRanges = (s: TestServer) => {
  const dataOffset = parseHeader(source.bytes).dataOffset;
  return s.ranges.filter((r) => r.start >= dataOffset);
};

describe('extracting areas from a remote PMTiles archive', () => {
  it('keeps every tile meeting the areas (plus 1 km) byte for byte, nothing else, in a clustered archive the library reads', async () => {
    const progress: ExtractProgress[] = [];
    const prepared = await prepareExtract({
      sourceUrl: server.url,
      fetch,
      boxes: [AREA],
      out,
      maxZoom: MAX_ZOOM,
      onProgress: (p) => progress.push(p),
    });
    const sourceHeader = parseHeader(source.bytes);
    expect(sourceHeader.leafLength).toBeGreaterThan(0); // the source needs leaf directories
    expect(dataRanges(server)).toEqual([]); // the estimate fetched no tile data
    const { estimate } = prepared;
    const result = await prepared.run();

    const margin = withMargin(AREA, 1);
    const expected = source.tiles.filter((t) => tileMeets(t.z, t.x, t.y, margin));
    const written = new Uint8Array(readFileSync(out));
    const raw = rawTiles(written);
    expect([...raw.keys()].sort((a, b) => a - b)).toEqual(
      expected.map((t) => tileIdOf(t.z, t.x, t.y)).sort((a, b) => a - b),
    );
    for (const t of expected) expect(raw.get(tileIdOf(t.z, t.x, t.y))).toEqual(t.bytes);
    expect(estimate.tiles).toBe(expected.length);
    expect(result.tiles).toBe(expected.length);

    const pm = library(written);
    const h = await pm.getHeader();
    expect(h.clustered).toBe(true);
    expect([h.minZoom, h.maxZoom]).toEqual([0, MAX_ZOOM]);
    expect(await pm.getMetadata()).toMatchObject({ attribution: '© OpenStreetMap contributors' });
    for (const t of expected.slice(0, 200)) {
      const got = await pm.getZxy(t.z, t.x, t.y);
      expect(new Uint8Array(got!.data)).toEqual(new Uint8Array(gunzipSync(t.bytes)));
    }
    const outside = source.tiles.find((t) => t.z === MAX_ZOOM && !tileMeets(t.z, t.x, t.y, margin));
    expect(await pm.getZxy(outside!.z, outside!.x, outside!.y)).toBeUndefined();

    const fetched = dataRanges(server).reduce((n, r) => n + r.end - r.start + 1, 0);
    expect(fetched / estimate.bytes).toBeLessThanOrEqual(1.15);
    expect(dataRanges(server).length).toBe(estimate.requests);
    expect(progress.at(-1)).toMatchObject({ tilesDone: expected.length, bytesDone: estimate.bytes });
    expect(existsSync(partialFileOf(out))).toBe(false);
  });

  it('resumes after a kill without fetching any tile byte twice', async () => {
    const controller = new AbortController();
    let reports = 0;
    const small = { maxRequestBytes: 2048 }; // many requests, so there is a middle to stop in
    const first = extractBasemap({
      sourceUrl: server.url,
      fetch,
      boxes: [AREA],
      out,
      maxZoom: MAX_ZOOM,
      coalesce: small,
      signal: controller.signal,
      onProgress: () => {
        if (++reports === 4) controller.abort();
      },
    });
    await expect(first).rejects.toMatchObject({ code: 'cancelled' });
    expect(existsSync(out)).toBe(false);
    const before = dataRanges(server).length;
    expect(before).toBe(3);

    const again = await prepareExtract({
      sourceUrl: server.url,
      fetch,
      boxes: [AREA],
      out,
      maxZoom: MAX_ZOOM,
      coalesce: small,
    });
    expect(again.estimate.resumed).toBe(true);
    expect(again.estimate.bytesToFetch).toBeLessThan(again.estimate.bytes);
    await again.run();
    const ranges = dataRanges(server);
    for (let i = 0; i < ranges.length; i++) {
      for (let j = i + 1; j < ranges.length; j++) {
        const [a, b] = [ranges[i]!, ranges[j]!];
        expect(a.end < b.start || b.end < a.start, `ranges ${i} and ${j} overlap`).toBe(true);
      }
    }
    const raw = rawTiles(new Uint8Array(readFileSync(out)));
    const margin = withMargin(AREA, 1);
    expect(raw.size).toBe(source.tiles.filter((t) => tileMeets(t.z, t.x, t.y, margin)).length);
  });

  it('prepares a resume from what the partial file kept, reading it without writing to it', async () => {
    // Leaf directories of 64 KB each, beyond the first 16 KiB a reader fetches.
    const hostile = hostileArchive(AREA, 13, { leaves: 4, leafBytes: 64 * 1024, internal: 'none' });
    server.set({ body: hostile.bytes });
    const controller = new AbortController();
    const first = extractBasemap({
      sourceUrl: server.url,
      fetch,
      boxes: [AREA],
      out,
      maxZoom: 13,
      coalesce: { maxRequestBytes: 256 },
      signal: controller.signal,
      onProgress: (p) => p.tilesDone > 0 && controller.abort(),
    });
    await expect(first).rejects.toMatchObject({ code: 'cancelled' });
    const files = () => readdirSync(dir.path).sort();
    const kept = { files: files(), bytes: readFileSync(partialFileOf(out)) };
    expect(kept.files).toEqual(['areas.pmtiles.partial']);
    const leafReads = () =>
      server.ranges.filter((r) => r.start >= hostile.leafOffset && r.start < hostile.dataOffset).length;
    expect(leafReads()).toBe(4);

    const again = await prepareExtract({ sourceUrl: server.url, fetch, boxes: [AREA], out, maxZoom: 13 });
    again.close();
    expect(again.estimate.resumed).toBe(true);
    expect(again.estimate.tilesToFetch).toBeLessThan(again.estimate.tiles);
    expect(again.estimate.directoryBytes).toBeGreaterThanOrEqual(4 * 64 * 1024);
    expect(leafReads()).toBe(4); // the leaf directories came from the partial file
    expect(files()).toEqual(kept.files); // nothing written beside it (no -wal, no -shm)
    expect(readFileSync(partialFileOf(out)).equals(kept.bytes)).toBe(true);
    // And the resumed download finishes from there.
    await (await prepareExtract({ sourceUrl: server.url, fetch, boxes: [AREA], out, maxZoom: 13 })).run();
    expect(leafReads()).toBe(4);
    expect(rawTiles(new Uint8Array(readFileSync(out))).size).toBe(hostile.tiles);
  });

  it('refuses to mix builds: a changed etag on resume says the source changed; start over', async () => {
    const controller = new AbortController();
    const first = extractBasemap({
      sourceUrl: server.url,
      fetch,
      boxes: [AREA],
      out,
      maxZoom: MAX_ZOOM,
      coalesce: { maxRequestBytes: 2048 },
      signal: controller.signal,
      onProgress: (p) => p.tilesDone > 0 && controller.abort(),
    });
    await expect(first).rejects.toMatchObject({ code: 'cancelled' });
    server.set({ etag: '"v2"' });
    const again = prepareExtract({ sourceUrl: server.url, fetch, boxes: [AREA], out, maxZoom: MAX_ZOOM });
    await expect(again).rejects.toThrow(/the source changed; start over/);
    await expect(again).rejects.toMatchObject({ code: 'source_changed' });
  });

  it('stops when the etag changes in the middle of a download', async () => {
    let flipped = false;
    const run = extractBasemap({
      sourceUrl: server.url,
      fetch,
      boxes: [AREA],
      out,
      maxZoom: MAX_ZOOM,
      coalesce: { maxRequestBytes: 2048 },
      onProgress: (p) => {
        if (!flipped && p.tilesDone > 0) {
          flipped = true;
          server.set({ etag: '"v2"' });
        }
      },
    });
    await expect(run).rejects.toMatchObject({ code: 'source_changed' });
    expect(existsSync(out)).toBe(false);
  });

  it('says so when the server ignores range requests', async () => {
    server.set({ ranges: false });
    const run = prepareExtract({ sourceUrl: server.url, fetch, boxes: [AREA], out });
    await expect(run).rejects.toMatchObject({ code: 'no_range_support' });
    await expect(run).rejects.toThrow(/does not answer range requests/);
  });

  it('keeps nothing from a source that is not a PMTiles archive', async () => {
    server.set({ body: new TextEncoder().encode('<html>'.repeat(5000)) });
    await expect(prepareExtract({ sourceUrl: server.url, fetch, boxes: [AREA], out })).rejects.toMatchObject({
      code: 'not_pmtiles',
    });
    expect(existsSync(partialFileOf(out))).toBe(false);
  });

  it('enforces the zoom and tile-count caps before fetching tiles', async () => {
    await expect(
      prepareExtract({ sourceUrl: server.url, fetch, boxes: [AREA], out, maxZoom: 17 }),
    ).rejects.toMatchObject({ code: 'bad_request' });
    await expect(
      prepareExtract({ sourceUrl: server.url, fetch, boxes: [REGION], out, maxTiles: 500 }),
    ).rejects.toMatchObject({ code: 'too_many_tiles' });
    expect(dataRanges(server)).toEqual([]);
  });

  it('refuses a plain-http source that is not loopback (the outbound rule)', async () => {
    await expect(
      prepareExtract({ sourceUrl: 'http://tiles.example.com/a.pmtiles', fetch, boxes: [AREA], out }),
    ).rejects.toThrow(/did not contact/);
  });

  it('names the tile-source rule, never the API key, when it refuses plain http', async () => {
    const refusal = await prepareExtract({
      sourceUrl: 'http://tiles.example.com/a.pmtiles',
      fetch,
      boxes: [AREA],
      out,
    }).then(
      () => null,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(refusal).toMatch(/map tile source must start with https:\/\//);
    expect(refusal).not.toMatch(/API key/);
    // The setting's own check says the same while it is typed.
    const typed = BasemapSourceUrl.safeParse('http://tiles.example.com/a.pmtiles');
    expect(typed.success).toBe(false);
    const message = typed.error?.issues.map((i) => i.message).join(' ') ?? '';
    expect(message).toMatch(/map tile source must start with https:\/\//);
    expect(message).not.toMatch(/API key/);
  });
});

describe('coalesce', () => {
  it('joins contiguous contents, fills small gaps within the overhead budget, and respects the request size', () => {
    const ranges = [
      { offset: 0, length: 100 },
      { offset: 100, length: 100 },
      { offset: 210, length: 100 },
      { offset: 5000, length: 100 },
    ];
    const reqs = coalesce(ranges, { maxOverhead: 0.1 });
    expect(reqs.map((r) => [r.offset, r.length])).toEqual([
      [0, 310],
      [5000, 100],
    ]);
    const kept = 400;
    expect(reqs.reduce((n, r) => n + r.length, 0) / kept).toBeLessThanOrEqual(1.1);
    expect(coalesce(ranges, { maxRequestBytes: 150 }).length).toBe(4);
  });

  it('ids round-trip (sanity for the fixtures)', () => {
    expect(zxyOf(tileIdOf(14, 4200, 6080))).toEqual({ z: 14, x: 4200, y: 6080 });
  });
});
