/**
 * Basemap extract benchmark: the tiles of a 10-mile-radius area (plus the 1 km margin) at zooms
 * 0–15, extracted by HTTP range requests on loopback from
 *   - the simulator's demo city archive (Chicago: Protomaps-schema MVT, geojson-vt + vt-pbf), and
 *   - a generated archive twice the area's size on each side (so the area's tiles are interleaved
 *     with tiles it does not want, in Hilbert order, and coalescing has gaps to weigh), its tiles
 *     about 2–14 KB like a city's vector tiles.
 *
 *   npx tsx bench/basemap.ts
 *
 * Prints JSON per source: range requests made, bytes fetched (header, directories and tile data)
 * over the bytes of the tiles kept (bound ≤ 1.15), seconds, tiles, output size. The z15 render in
 * headless Chromium (median ms per tile) waits for the renderer's vector layer.
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { circleBox } from '../src-shared/geo/bbox';
import { extractBasemap, prepareExtract } from '../src-main/engine/basemap/extract/extract';
import { serveBytes, sourceArchive } from '../src-main/engine/basemap/extract/testServer';
import { startSimulator } from '../src-sim/index';
import { round } from './lib/stats';

const RESULTS = path.join(import.meta.dirname, 'results', 'basemap');
const BOUND = 1.15;
const out = (figure: Record<string, unknown>): void => console.log(JSON.stringify(figure));

async function measure(name: string, url: string, lat: number, lon: number): Promise<boolean> {
  const file = path.join(RESULTS, `${name}.pmtiles`);
  rmSync(file, { force: true });
  rmSync(`${file}.partial`, { force: true });
  const area = circleBox(lat, lon, 10);
  const prepared = await prepareExtract({ sourceUrl: url, fetch, boxes: [area], out: file, maxZoom: 15 });
  const { estimate } = prepared;
  prepared.close();
  const t = performance.now();
  const result = await extractBasemap({ sourceUrl: url, fetch, boxes: [area], out: file, maxZoom: 15 });
  const seconds = (performance.now() - t) / 1000;
  const ratio = result.bytesFetched / estimate.bytes;
  const ok = ratio <= BOUND;
  out({
    bench: 'basemap-extract',
    source: name,
    area: '10-mile radius + 1 km, z0-15',
    tiles: result.tiles,
    keptTileBytes: estimate.bytes,
    rangeRequests: result.requests,
    bytesFetched: result.bytesFetched,
    tileBytesFetched: result.tileBytesFetched,
    fetchedOverKept: round(ratio, 3),
    tileDataFetchedOverKept: round(result.tileBytesFetched / estimate.bytes, 3),
    bound: BOUND,
    seconds: round(seconds, 2),
    outputBytes: result.fileBytes,
    ok,
  });
  return ok;
}

async function main(): Promise<void> {
  mkdirSync(RESULTS, { recursive: true });
  const sim = await startSimulator({
    profile: 'demo',
    scale: 'tiny',
    clock: 'manual',
    now: '2025-11-20T15:00:00Z',
  });
  const city = sim.cities.find((c) => c.name === 'Chicago')!;
  let ok = true;
  try {
    await fetch(sim.basemapUrl!, { headers: { Range: 'bytes=0-0' } }); // build it before timing
    ok = (await measure('demo-city', sim.basemapUrl!, city.lat, city.lon)) && ok;
  } finally {
    await sim.close();
  }
  const area = circleBox(city.lat, city.lon, 20);
  const generated = sourceArchive(area, 15, 8_000);
  const server = await serveBytes(generated.bytes);
  try {
    ok = (await measure('generated-2x', server.url, city.lat, city.lon)) && ok;
  } finally {
    await server.close();
  }
  process.exitCode = ok ? 0 : 1;
}

void main();
