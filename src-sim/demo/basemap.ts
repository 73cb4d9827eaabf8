/**
 * The demo city's basemap as a PMTiles archive: the GeoJSON layers tiled with geojson-vt (zooms
 * 0–15, 4096 extent), a road shown from its `min_zoom`, encoded as MVT with vt-pbf, gzipped, written
 * with the shared PMTiles writer (src-shared/pmtiles) — the same writer the app's extracts use.
 */
import { gzipSync } from 'node:zlib';
import GeoJSONVT from 'geojson-vt';
import { fromGeojsonVt } from 'vt-pbf';
import { COMPRESSION, TILE_TYPE, tileX, tileY, writeArchive, type TileInput } from '../../src-shared/pmtiles';
import { groundExtent, demoLayers, type DemoLayers } from './layers';
import { demoCity } from './place';

export const DEMO_MAX_ZOOM = 15;
export const DEMO_ATTRIBUTION = 'Synthetic demo streets (Blotter simulator)';

export type DemoBasemap = { bytes: Uint8Array; layers: DemoLayers; tiles: number; ms: number };

export function demoBasemap(cityIndex: number, maxZoom = DEMO_MAX_ZOOM): DemoBasemap {
  const t0 = performance.now();
  const { map, network } = demoCity(cityIndex);
  const layers = demoLayers(map, network);
  const indexes = Object.entries(layers).map(
    ([name, fc]) =>
      [name, new GeoJSONVT(fc, { maxZoom, indexMaxZoom: 5, extent: 4096, buffer: 64 })] as const,
  );
  const g = groundExtent(map);
  const tiles: TileInput[] = [];
  for (let z = 0; z <= maxZoom; z++) {
    for (let x = tileX(g.minLon, z); x <= tileX(g.maxLon, z); x++) {
      for (let y = tileY(g.maxLat, z); y <= tileY(g.minLat, z); y++) {
        const tileLayers: Record<string, { features: unknown[] }> = {};
        for (const [name, index] of indexes) {
          const tile = index.getTile(z, x, y);
          const features = (tile?.features ?? []).filter((f) => Number(f.tags?.min_zoom ?? 0) <= z);
          if (features.length) tileLayers[name] = { features };
        }
        if (Object.keys(tileLayers).length === 0) continue;
        const mvt = fromGeojsonVt(tileLayers, { version: 2, extent: 4096 });
        tiles.push({ z, x, y, bytes: new Uint8Array(gzipSync(mvt)) });
      }
    }
  }
  const bytes = writeArchive(tiles, {
    tileType: TILE_TYPE.mvt,
    tileCompression: COMPRESSION.gzip,
    internal: { kind: COMPRESSION.gzip, compress: (b) => new Uint8Array(gzipSync(b)) },
    metadata: {
      name: `${map.city.name} (Blotter demo)`,
      attribution: DEMO_ATTRIBUTION,
      type: 'baselayer',
      vector_layers: Object.keys(layers).map((id) => ({ id, fields: {} })),
    },
    bounds: [g.minLon, g.minLat, g.maxLon, g.maxLat],
    center: { lon: map.city.lon, lat: map.city.lat, zoom: 13 },
    minZoom: 0,
    maxZoom,
  });
  return { bytes, layers, tiles: tiles.length, ms: performance.now() - t0 };
}
