import { VectorTile } from '@mapbox/vector-tile';
import * as basemaps from '@protomaps/basemaps';
import Pbf from 'pbf';
import { FetchSource, PMTiles, type RangeResponse, type Source } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHeader, tileX, tileY } from '../../src-shared/pmtiles';
import { SPECIAL_ADDRESSES } from '../data/addresses';
import { CITIES } from '../data/cities';
import type { Dataset } from '../data/generate';
import { startSimulator } from '../simulator';
import type { Simulator } from '../types';
import { demoBasemap } from './basemap';
import { metresToLine, type LatLon } from './cityMap';
import { generateDemo } from './generate';
import { demoLayers } from './layers';
import { demoCity } from './place';

const NOW = Date.parse('2025-11-20T15:00:00Z');
const CHICAGO = CITIES.findIndex((c) => c.name === 'Chicago');
let data: Dataset;

beforeAll(() => {
  data = generateDemo({ seed: 1, count: 25_000, now: NOW, spanDays: 400 });
});

const streetOf = (address: string) => /^\d+ Block of (.*)$/.exec(address)?.[1] ?? '';
const blockOf = (address: string) => Number(/^(\d+) Block of /.exec(address)?.[1]);

type Road = { name: string; line: LatLon[] };
function roadsOf(city: number): Map<string, Road[]> {
  const { map, network } = demoCity(city);
  const byName = new Map<string, Road[]>();
  for (const f of demoLayers(map, network).roads.features) {
    const name = String(f.properties?.name);
    const coords = (f.geometry as unknown as { coordinates: [number, number][] }).coordinates;
    const list = byName.get(name) ?? [];
    list.push({ name, line: coords.map(([lon, lat]) => [lat, lon] as LatLon) });
    byName.set(name, list);
  }
  return byName;
}

describe('the demo profile', () => {
  it('puts every incident within 25 m of a road carrying its street name, and none in water', () => {
    for (let city = 0; city < CITIES.length; city++) {
      const roads = roadsOf(city);
      const { map } = demoCity(city);
      for (let r = 0; r < data.store.size; r++) {
        if (data.store.city[r] !== city) continue;
        const lat = data.store.lat[r] as number;
        const lon = data.store.lon[r] as number;
        const address = data.store.address(r);
        const near = Math.min(
          ...(roads.get(streetOf(address)) ?? []).map((road) => metresToLine(lat, lon, road.line)),
        );
        expect(near, `${address} at ${lat},${lon}`).toBeLessThanOrEqual(25);
        expect(map.inWater(lat, lon), `${address} in water`).toBe(false);
      }
    }
  });

  it('keeps Chicago incidents out of Lake Michigan and the river while some lie near both', () => {
    const { map } = demoCity(CHICAGO);
    let nearShore = 0;
    for (let r = 0; r < data.store.size; r++) {
      if (data.store.city[r] !== CHICAGO) continue;
      const lat = data.store.lat[r] as number;
      const lon = data.store.lon[r] as number;
      expect(map.inLake(lat, lon)).toBe(false);
      if (map.inLake(lat, lon + 0.01)) nearShore++;
    }
    expect(nearShore).toBeGreaterThan(50);
  });

  it('numbers blocks upwards along each street, from the centre outwards', () => {
    const roads = roadsOf(CHICAGO);
    const onRoad = new Map<Road, { along: number; block: number }[]>();
    for (let r = 0; r < data.store.size; r++) {
      if (data.store.city[r] !== CHICAGO) continue;
      const lat = data.store.lat[r] as number;
      const lon = data.store.lon[r] as number;
      const address = data.store.address(r);
      for (const road of roads.get(streetOf(address)) ?? []) {
        if (metresToLine(lat, lon, road.line) > 25) continue;
        const [start] = road.line as [LatLon];
        const along = metresToLine(start[0], start[1], [
          [lat, lon],
          [lat, lon],
        ]);
        const list = onRoad.get(road) ?? [];
        list.push({ along, block: blockOf(address) });
        onRoad.set(road, list);
      }
    }
    expect(onRoad.size).toBeGreaterThan(100);
    for (const [road, points] of onRoad) {
      points.sort((a, b) => a.along - b.along);
      for (let i = 1; i < points.length; i++) {
        expect(points[i]!.block, road.name).toBeGreaterThanOrEqual(points[i - 1]!.block);
      }
    }
  });

  it('leaves out the test fixtures', () => {
    expect(data.fixtureRows.size).toBe(0);
    const addresses = new Set<string>();
    const perBlockDay = new Map<string, number>();
    for (let r = 0; r < data.store.size; r++) {
      const a = data.store.address(r);
      addresses.add(a);
      const k = `${a}|${Math.floor((data.store.occurredAt[r] as number) / 86_400_000)}`;
      perBlockDay.set(k, (perBlockDay.get(k) ?? 0) + 1);
    }
    for (const special of SPECIAL_ADDRESSES) expect(addresses.has(special)).toBe(false);
    expect(Math.max(...perBlockDay.values())).toBeLessThan(20);
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

  it('is a clustered PMTiles of gzipped MVT whose z15 tiles carry the streets by name', async () => {
    const h = parseHeader(basemap.bytes);
    expect(h.clustered).toBe(true);
    expect([h.minZoom, h.maxZoom, h.tileType, h.tileCompression]).toEqual([0, 15, 1, 2]);
    const pm = archive(basemap.bytes);
    let checked = 0;
    for (let r = 0; r < data.store.size && checked < 25; r += 97) {
      if (data.store.city[r] !== CHICAGO) continue;
      const lat = data.store.lat[r] as number;
      const lon = data.store.lon[r] as number;
      const tile = await pm.getZxy(15, tileX(lon, 15), tileY(lat, 15));
      expect(tile).toBeDefined();
      const vt = new VectorTile(new Pbf(new Uint8Array(tile!.data)));
      expect(Object.keys(vt.layers).every((l) => ['earth', 'water', 'roads', 'places'].includes(l))).toBe(
        true,
      );
      const roads = vt.layers.roads!;
      const names = new Set(Array.from({ length: roads.length }, (_, i) => roads.feature(i).properties.name));
      expect(names.has(streetOf(data.store.address(r)))).toBe(true);
      checked++;
    }
    expect(checked).toBe(25);
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

  it('answers ranges with 206, an etag, and the archive the pmtiles library reads', async () => {
    expect(sim.basemapUrl).toBe(`${sim.url}/basemap/demo.pmtiles`);
    const res = await fetch(sim.basemapUrl!, { headers: { Range: 'bytes=0-126' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toMatch(/^bytes 0-126\/\d+$/);
    expect(res.headers.get('etag')).toBeTruthy();
    const head = new Uint8Array(await res.arrayBuffer());
    expect(parseHeader(head).maxZoom).toBe(15);
    const pm = new PMTiles(new FetchSource(sim.basemapUrl!));
    const c = CITIES[CHICAGO]!;
    expect(await pm.getZxy(15, tileX(c.lon, 15), tileY(c.lat, 15))).toBeDefined();
    expect((await fetch(`${sim.url}/basemap/nowhere.pmtiles`)).status).toBe(404);
  });

  it('keeps the test profile as it was: no basemap route, fixtures present', async () => {
    expect(testSim.basemapUrl).toBeNull();
    expect((await fetch(`${testSim.url}/basemap/demo.pmtiles`)).status).toBe(404);
    expect(testSim.bigBlock.count).toBe(650);
    expect(sim.bigBlock.count).toBe(0);
  });
});
