/**
 * Writing the finished extract runs on the engine thread, so it yields while it goes through the
 * tiles: a call asked once it started is answered before the last tile is written (16k tiles and
 * the fsync held the engine ~1 s in one stretch), and the file still holds every tile.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseHeader } from '../../../../src-shared/pmtiles';
import { makeTempDir, type TempDir } from '../../testing/tempDir';
import type { PartialStore } from './partialStore';
import { sourceArchive } from './testServer';
import { writeOutput } from './writeOutput';

let dir: TempDir;
beforeEach(() => (dir = makeTempDir('blotter-write-output-')));
afterEach(() => dir.remove());

const TILES = 2_000;

describe('writing the finished extract', () => {
  it('answers a call asked while it writes the tiles before it has written them all', async () => {
    const source = parseHeader(
      sourceArchive({ minLat: 41.8, maxLat: 41.9, minLon: -87.7, maxLon: -87.6 }, 6).bytes,
    );
    let read = 0;
    // A tile read from the partial store that takes a while (0.05 ms), as a big one from disk does.
    const store = {
      tile(offset: number) {
        read++;
        const until = performance.now() + 0.05;
        while (performance.now() < until);
        return Uint8Array.of(0x1f, 0x8b, offset % 251, (offset >> 8) % 251);
      },
    } as unknown as PartialStore;
    const out = path.join(dir.path, 'areas.pmtiles');
    const writing = writeOutput(store, {
      out,
      tiles: Array.from({ length: TILES }, (_, k) => ({ tileId: k + 1, offset: k * 4, length: 4 })),
      source,
      metadata: {},
      bounds: [-87.7, 41.8, -87.6, 41.9],
      minZoom: 0,
      maxZoom: 15,
    });
    let readWhenAnswered = -1;
    setImmediate(() => (readWhenAnswered = read));
    const written = await writing;
    expect(readWhenAnswered).toBeGreaterThan(0);
    expect(readWhenAnswered).toBeLessThan(TILES);
    expect(written.tiles).toBe(TILES);
    expect(parseHeader(new Uint8Array(readFileSync(out))).addressedTiles).toBe(TILES);
  });
});
