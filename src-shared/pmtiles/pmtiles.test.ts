import { PMTiles, tileIdToZxy, zxyToTileId, type RangeResponse, type Source } from 'pmtiles';
import { describe, expect, it } from 'vitest';
import { parseDirectory } from './directory';
import { COMPRESSION, parseHeader, ROOT_LIMIT, TILE_TYPE, tileIdOf, zxyOf } from './format';
import { writeArchive, type TileInput } from './writer';

/** The `pmtiles` library reading an archive held in memory. */
function reader(bytes: Uint8Array): PMTiles {
  const source: Source = {
    getKey: () => 'memory',
    getBytes: async (offset: number, length: number): Promise<RangeResponse> => ({
      data: bytes.slice(offset, offset + length).buffer,
    }),
  };
  return new PMTiles(source);
}

const tileBytes = (seed: number, length = 5 + (seed % 40)) =>
  Uint8Array.from({ length }, (_, i) => (seed * 31 + i * 7) & 0xff);

const OPTS = { tileType: TILE_TYPE.mvt, tileCompression: COMPRESSION.none, metadata: { name: 'test' } };

async function expectEveryTile(bytes: Uint8Array, tiles: readonly TileInput[]) {
  const pm = reader(bytes);
  for (const t of tiles) {
    const got = await pm.getZxy(t.z, t.x, t.y);
    expect(got, `${t.z}/${t.x}/${t.y}`).toBeDefined();
    expect(new Uint8Array(got!.data)).toEqual(t.bytes);
  }
}

describe('tile ids', () => {
  it('agree with the pmtiles library both ways, up to zoom 26', () => {
    for (let z = 0; z <= 26; z++) {
      const n = 2 ** z;
      for (const [x, y] of [
        [0, 0],
        [n - 1, n - 1],
        [Math.floor(n / 3), Math.floor((2 * n) / 3)],
        [n - 1, 0],
      ] as const) {
        const id = tileIdOf(z, x, y);
        expect(id).toBe(zxyToTileId(z, x, y));
        expect(zxyOf(id)).toEqual({ z, x, y });
        expect(tileIdToZxy(id)).toEqual([z, x, y]);
      }
    }
  });
});

describe('PmtilesWriter', () => {
  it('writes an archive the pmtiles library reads back byte for byte, clustered, with valid header fields', async () => {
    const tiles: TileInput[] = [];
    for (let z = 0; z <= 5; z++) {
      for (let x = 0; x < 2 ** z; x += 1 + (z >> 1)) {
        for (let y = 0; y < 2 ** z; y += 1 + (z >> 1))
          tiles.push({ z, x, y, bytes: tileBytes(z * 1000 + x * 37 + y) });
      }
    }
    const bytes = writeArchive(tiles, {
      ...OPTS,
      bounds: [-88, 41, -87, 42],
      center: { lon: -87.6, lat: 41.9, zoom: 4 },
    });
    await expectEveryTile(bytes, tiles);
    const h = await reader(bytes).getHeader();
    expect(h.clustered).toBe(true);
    expect(h.specVersion).toBe(3);
    expect([h.minZoom, h.maxZoom]).toEqual([0, 5]);
    expect([h.minLon, h.minLat, h.maxLon, h.maxLat]).toEqual([-88, 41, -87, 42]);
    expect([h.centerLon, h.centerLat, h.centerZoom]).toEqual([-87.6, 41.9, 4]);
    expect(h.numAddressedTiles).toBe(tiles.length);
    expect(h.tileDataOffset + (h.tileDataLength ?? NaN)).toBe(bytes.length);
    expect(await reader(bytes).getMetadata()).toEqual({ name: 'test' });
    // Absent tiles stay absent.
    expect(await reader(bytes).getZxy(5, 1, 1)).toBeUndefined();
    expect(await reader(bytes).getZxy(6, 0, 0)).toBeUndefined();
  });

  it('stores identical contents once and folds consecutive repeats into runs', async () => {
    const ocean = tileBytes(7, 30);
    const tiles: TileInput[] = [];
    for (let x = 0; x < 16; x++)
      for (let y = 0; y < 16; y++)
        tiles.push({ z: 4, x, y, bytes: x === 3 && y === 5 ? tileBytes(99) : ocean });
    const bytes = writeArchive(tiles, OPTS);
    await expectEveryTile(bytes, tiles);
    const h = parseHeader(bytes);
    expect(h.addressedTiles).toBe(256);
    expect(h.tileContents).toBe(2);
    expect(h.dataLength).toBe(ocean.length + tileBytes(99).length);
    expect(h.tileEntries).toBeLessThanOrEqual(3); // ocean run, the odd tile, ocean run
    // Clustered: each entry's data follows the previous one, or points back to an earlier copy.
    const entries = parseDirectory(bytes.subarray(h.rootOffset, h.rootOffset + h.rootLength));
    let end = 0;
    for (const e of entries) {
      expect(e.offset === end || e.offset < end).toBe(true);
      end = Math.max(end, e.offset + e.length);
    }
  });

  it('splits the directory into leaves when the root would pass 16 KiB, and the library follows them', async () => {
    const tiles: TileInput[] = [];
    for (let x = 0; x < 256; x++)
      for (let y = 0; y < 160; y++)
        tiles.push({ z: 8, x, y, bytes: tileBytes(x * 256 + y, 3 + ((x + y) % 5)) });
    const bytes = writeArchive(tiles, OPTS);
    const h = parseHeader(bytes);
    expect(h.leafLength).toBeGreaterThan(0);
    expect(h.rootOffset + h.rootLength).toBeLessThanOrEqual(ROOT_LIMIT);
    expect(
      parseDirectory(bytes.subarray(h.rootOffset, h.rootOffset + h.rootLength)).every(
        (e) => e.runLength === 0,
      ),
    ).toBe(true);
    await expectEveryTile(bytes, tiles);
  });

  it('refuses tiles out of tile id order', async () => {
    const { PmtilesWriter } = await import('./writer');
    const w = new PmtilesWriter();
    w.add(5, tileBytes(1));
    expect(() => w.add(4, tileBytes(2))).toThrow(/ascending/);
  });
});
