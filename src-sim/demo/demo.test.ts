import { readFileSync } from 'node:fs';
import { VectorTile } from '@mapbox/vector-tile';
import * as basemaps from '@protomaps/basemaps';
import Pbf from 'pbf';
import { FetchSource, PMTiles, type RangeResponse, type Source } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHeader, tileX, tileY } from '../../src-shared/pmtiles';
import { SPECIAL_ADDRESSES } from '../data/addresses';
import { CITIES } from '../data/cities';
import { generate, type Dataset, type GenerateOptions } from '../data/generate';
import { startSimulator } from '../simulator';
import type { Simulator } from '../types';
import { demoBasemap } from './basemap';
import { DEMO_PROFILE } from './profile';
import { addressStreetName, PARK_KINDS } from './realStreets';

const NOW = Date.parse('2025-11-20T15:00:00Z');
const generateDemo = (o: GenerateOptions) => generate(o, DEMO_PROFILE);
const CHICAGO = CITIES.findIndex((c) => c.name === 'Chicago');
let data: Dataset;

beforeAll(() => {
  data = generateDemo({ seed: 1, count: 25_000, now: NOW, spanDays: 400 });
});

const ADDRESS = /^(\d+) BLOCK OF (.+)$/;
const M_PER_DEG = 111_320;

/**
 * The archive in the repository, read the way a map reads it (the pmtiles library, @mapbox/vector-tile):
 * a zoom-14 tile's named roads (by their address form, "MISSION ST") and its water and parks.
 */
type Ring = { x: number; y: number }[];
type TileShapes = { extent: number; roads: Map<string, Ring[]>; water: Ring[][]; parks: Ring[][] };
const archiveBytes = new Uint8Array(readFileSync(new URL('./data/san-francisco.pmtiles', import.meta.url)));
const sf = new PMTiles({
  getKey: () => 'sf',
  getBytes: async (offset: number, length: number): Promise<RangeResponse> => ({
    data: archiveBytes.slice(offset, offset + length).buffer,
  }),
});
const shapes = new Map<string, Promise<TileShapes>>();
function tileShapes(x: number, y: number): Promise<TileShapes> {
  const key = `${x}/${y}`;
  let p = shapes.get(key);
  if (!p) {
    p = (async () => {
      const t = await sf.getZxy(14, x, y);
      const vt = new VectorTile(new Pbf(new Uint8Array(t!.data)));
      const out: TileShapes = {
        extent: vt.layers.roads?.extent ?? 4096,
        roads: new Map(),
        water: [],
        parks: [],
      };
      const roads = vt.layers.roads;
      for (let i = 0; i < (roads?.length ?? 0); i++) {
        const f = roads!.feature(i);
        if (typeof f.properties.name !== 'string' || f.type !== 2) continue;
        const name = addressStreetName(f.properties.name);
        out.roads.set(name, [...(out.roads.get(name) ?? []), ...f.loadGeometry()]);
      }
      for (const [layer, list, keep] of [
        ['water', out.water, () => true],
        ['landuse', out.parks, (k: unknown) => PARK_KINDS.has(String(k))],
      ] as const) {
        const l = vt.layers[layer];
        for (let i = 0; i < (l?.length ?? 0); i++) {
          const f = l!.feature(i);
          if (f.type === 3 && keep(f.properties.kind)) list.push(f.loadGeometry());
        }
      }
      return out;
    })();
    shapes.set(key, p);
  }
  return p;
}

/** Where a point falls in its zoom-14 tile, in tile units (and how many metres a unit is). */
function inTile(lat: number, lon: number, extent: number) {
  const n = 2 ** 14;
  const fx = ((lon + 180) / 360) * n;
  const r = (lat * Math.PI) / 180;
  const fy = ((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n;
  const x = Math.floor(fx);
  const y = Math.floor(fy);
  const metresPerUnit = (M_PER_DEG * 360 * Math.cos(r)) / n / extent;
  return { x, y, px: (fx - x) * extent, py: (fy - y) * extent, metresPerUnit };
}

function distanceToLines(px: number, py: number, lines: Ring[]): number {
  let best = Infinity;
  for (const line of lines) {
    for (let i = 1; i < line.length; i++) {
      const a = line[i - 1]!;
      const b = line[i]!;
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      const t = Math.max(0, Math.min(1, ((px - a.x) * dx + (py - a.y) * dy) / (dx * dx + dy * dy || 1)));
      best = Math.min(best, Math.hypot(a.x + t * dx - px, a.y + t * dy - py));
    }
  }
  return best;
}

/** Even–odd over a feature's rings. */
const inFeature = (rings: Ring[], px: number, py: number): boolean => {
  let inside = false;
  for (const ring of rings)
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const a = ring[i]!;
      const b = ring[j]!;
      if (a.y > py !== b.y > py && px < ((b.x - a.x) * (py - a.y)) / (b.y - a.y) + a.x) inside = !inside;
    }
  return inside;
};

describe('the demo profile: San Francisco on the streets of its real basemap', () => {
  it('puts every incident within 30 m of an archive road carrying its street name, none in water or parks', async () => {
    expect(data.store.size).toBeGreaterThan(20_000);
    expect(data.store.cities.map((c) => c.name)).toEqual(['San Francisco']);
    for (let r = 0; r < data.store.size; r++) {
      const lat = data.store.lat[r] as number;
      const lon = data.store.lon[r] as number;
      const address = data.store.address(r);
      const m = ADDRESS.exec(address);
      expect(m, address).not.toBeNull();
      const t = inTile(lat, lon, 4096);
      const tile = await tileShapes(t.x, t.y);
      const near = distanceToLines(t.px, t.py, tile.roads.get(m![2]!) ?? []) * t.metresPerUnit;
      expect(near, `${address} at ${lat},${lon}`).toBeLessThanOrEqual(30);
      expect(
        tile.water.some((w) => inFeature(w, t.px, t.py)),
        `${address} in water`,
      ).toBe(false);
      expect(
        tile.parks.some((w) => inFeature(w, t.px, t.py)),
        `${address} in a park`,
      ).toBe(false);
    }
  });

  it('is shaped like a city: repeat blocks, busier downtown, the same data for the same seed', () => {
    const perAddress = new Map<string, number>();
    let downtown = 0;
    let outer = 0;
    for (let r = 0; r < data.store.size; r++) {
      const a = data.store.address(r);
      perAddress.set(a, (perAddress.get(a) ?? 0) + 1);
      const lat = data.store.lat[r] as number;
      const lon = data.store.lon[r] as number;
      // Equal boxes: the Tenderloin and Union Square, and the Outer Sunset.
      if (Math.abs(lat - 37.785) < 0.006 && Math.abs(lon + 122.411) < 0.008) downtown++;
      if (Math.abs(lat - 37.752) < 0.006 && Math.abs(lon + 122.495) < 0.008) outer++;
    }
    expect(perAddress.size).toBeGreaterThan(3000);
    expect(Math.max(...perAddress.values())).toBeGreaterThan(50);
    expect(downtown).toBeGreaterThan(5 * outer);
    expect(outer).toBeGreaterThan(0);
    expect(perAddress.get('800 BLOCK OF MARKET ST') ?? 0).toBeGreaterThan(0);

    const again = generateDemo({ seed: 1, count: 25_000, now: NOW, spanDays: 400 });
    expect(again.store.size).toBe(data.store.size);
    for (let r = 0; r < data.store.size; r += 7) {
      expect([again.store.lat[r], again.store.lon[r], again.store.address(r)]).toEqual([
        data.store.lat[r],
        data.store.lon[r],
        data.store.address(r),
      ]);
    }
    const other = generateDemo({ seed: 2, count: 25_000, now: NOW, spanDays: 400 });
    expect(other.store.address(0) + other.store.address(1)).not.toBe(
      data.store.address(0) + data.store.address(1),
    );
  });

  it('leaves out the test fixtures', () => {
    expect(data.fixtureRows.size).toBe(0);
    const addresses = new Set<string>();
    for (let r = 0; r < data.store.size; r++) addresses.add(data.store.address(r));
    for (const special of SPECIAL_ADDRESSES) expect(addresses.has(special)).toBe(false);
  });
});

describe('the demo basemap', () => {
  const basemap = demoBasemap(CHICAGO);
  const archive = (bytes: Uint8Array): PMTiles => {
    const source: Source = {
      getKey: () => 'demo',
      getBytes: async (offset: number, length: number): Promise<RangeResponse> => ({
        data: bytes.slice(offset, offset + length).buffer,
      }),
    };
    return new PMTiles(source);
  };

  // kind_detail carries OSM highway values (residential, secondary) as Protomaps builds do; the style
  // filters only a few of them, so it is checked as a property name, not by value.
  it('uses only layer, kind and property names the Protomaps style (protomaps-leaflet’s schema) draws', () => {
    const style = basemaps.layers('protomaps', basemaps.namedFlavor('light'), { lang: 'en' });
    const styleText = JSON.stringify(style);
    const sourceLayers = new Set(
      style.map((l) => (l as { 'source-layer'?: string })['source-layer']).filter(Boolean),
    );
    for (const [layer, fc] of Object.entries(basemap.layers)) {
      expect(sourceLayers.has(layer), layer).toBe(true);
      const styleOfLayer = JSON.stringify(
        style.filter((l) => (l as { 'source-layer'?: string })['source-layer'] === layer),
      );
      for (const f of fc.features) {
        for (const [prop, value] of Object.entries(f.properties ?? {})) {
          expect(styleText.includes(`"${prop}"`), `${layer}.${prop}`).toBe(true);
          if (prop === 'kind')
            expect(styleOfLayer.includes(`"${String(value)}"`), `${layer} ${prop} ${String(value)}`).toBe(
              true,
            );
        }
      }
    }
  });

  it('is a clustered PMTiles of gzipped MVT whose z12 tiles carry major roads only', async () => {
    const h = parseHeader(basemap.bytes);
    expect(h.clustered).toBe(true);
    expect([h.minZoom, h.maxZoom, h.tileType, h.tileCompression]).toEqual([0, 15, 1, 2]);
    const pm = archive(basemap.bytes);
    // Zoom 12 shows major roads only.
    const z12 = await pm.getZxy(12, tileX(CITIES[CHICAGO]!.lon, 12), tileY(CITIES[CHICAGO]!.lat, 12));
    const vt12 = new VectorTile(new Pbf(new Uint8Array(z12!.data)));
    const kinds = new Set(
      Array.from(
        { length: vt12.layers.roads!.length },
        (_, i) => vt12.layers.roads!.feature(i).properties.kind,
      ),
    );
    expect([...kinds]).toEqual(['major_road']);
  });
});

describe('the simulator serves the demo basemap by range requests', () => {
  let sim: Simulator;
  let testSim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ profile: 'demo', scale: 'tiny', clock: 'manual', now: NOW });
    testSim = await startSimulator({ scale: 'tiny', clock: 'manual', now: NOW });
  });
  afterAll(async () => {
    await sim.close();
    await testSim.close();
  });

  it('answers ranges with 206, an etag, and the real San Francisco archive the pmtiles library reads', async () => {
    expect(sim.basemapUrl).toBe(`${sim.url}/basemap/demo.pmtiles`);
    const res = await fetch(sim.basemapUrl!, { headers: { Range: 'bytes=0-126' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 0-126/${archiveBytes.length}`);
    expect(res.headers.get('etag')).toBeTruthy();
    const head = new Uint8Array(await res.arrayBuffer());
    expect(head).toEqual(archiveBytes.subarray(0, 127));
    expect(parseHeader(head).maxZoom).toBe(14);
    const whole = new Uint8Array(await (await fetch(sim.basemapUrl!)).arrayBuffer());
    expect(Buffer.compare(whole, archiveBytes)).toBe(0);
    const pm = new PMTiles(new FetchSource(sim.basemapUrl!));
    expect((await pm.getMetadata()) as { attribution?: string }).toMatchObject({
      attribution: expect.stringContaining('OpenStreetMap'),
    });
    const c = sim.cities[0]!;
    expect(c.name).toBe('San Francisco');
    expect(await pm.getZxy(14, tileX(c.lon, 14), tileY(c.lat, 14))).toBeDefined();
    const chicago = CITIES[CHICAGO]!;
    const synthetic = new PMTiles(new FetchSource(`${sim.url}/basemap/chicago.pmtiles`));
    expect(await synthetic.getZxy(15, tileX(chicago.lon, 15), tileY(chicago.lat, 15))).toBeDefined();
    expect((await fetch(`${sim.url}/basemap/nowhere.pmtiles`)).status).toBe(404);
  });

  it('keeps the test profile as it was: no basemap route, fixtures present', async () => {
    expect(testSim.basemapUrl).toBeNull();
    expect((await fetch(`${testSim.url}/basemap/demo.pmtiles`)).status).toBe(404);
    expect(testSim.bigBlock.count).toBe(650);
    expect(sim.bigBlock.count).toBe(0);
  });
});
