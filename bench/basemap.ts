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
 * over the bytes of the tiles kept (bound ≤ 1.15), seconds, tiles, output size.
 *
 * Then the map render at z15 in headless Chromium (/usr/bin/chromium, or BLOTTER_CHROMIUM): the
 * demo city's densest z15 tiles (by decompressed MVT bytes, as the engine hands them to the page),
 * each drawn from its bytes into a 512 px canvas by the renderer's own code — paintStreets
 * (src-renderer/map/basemap/staticStreets.ts: protomaps-leaflet, the app's flavour rules, parse +
 * label layout + paint) fed through engineTileSource — bundled with esbuild. Median ms per tile,
 * bound 50.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { build } from 'esbuild';
import { circleBox } from '../src-shared/geo/bbox';
import { extractBasemap, prepareExtract } from '../src-main/engine/basemap/extract/extract';
import { serveBytes, sourceArchive } from '../src-main/engine/basemap/extract/testServer';
import { openPmtiles } from '../src-main/engine/basemap/pmtilesFile';
import { tileX, tileY } from '../src-shared/pmtiles';
import { CITIES } from '../src-sim/data/cities';
import { demoBasemap } from '../src-sim/demo/basemap';
import { startSimulator } from '../src-sim/index';
import { quantile, round } from './lib/stats';

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

const RENDER_BOUND_MS = 50;
const RENDER_ZOOM = 15;
const DENSEST = 24;
const REPEATS = 3;

/** The page side: tile bytes → canvas with the renderer's paintStreets, one 512 px tile per call. */
const PAGE_ENTRY = `
import { engineTileSource } from '../src-renderer/map/basemap/engineTiles';
import { paintStreets } from '../src-renderer/map/basemap/staticStreets';
const tiles = new Map();
window.__bench = {
  add(key, b64) { tiles.set(key, Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))); },
  async render(z, x, y, maxZoom) {
    const key = z + '/' + x + '/' + y;
    // Only this tile answers, as the engine would for an area's edge: neighbours draw nothing.
    const client = { call: async (_name, c) => {
      const bytes = c.z + '/' + c.x + '/' + c.y === key ? tiles.get(key) : undefined;
      if (!bytes) throw new Error('not_found');
      return { bytes, contentType: 'application/vnd.mapbox-vector-tile' };
    } };
    const canvas = document.createElement('canvas');
    canvas.width = 512;
    canvas.height = 512;
    const ctx = canvas.getContext('2d');
    const n = 2 ** z;
    const lon = ((x + 0.5) / n) * 360 - 180;
    const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * (y + 0.5)) / n))) * 180) / Math.PI;
    const t0 = performance.now();
    // 512 px over one zoom-z tile is display zoom z + 1 (256 px tiles), data zoom z.
    await paintStreets(engineTileSource(client), maxZoom, ctx,
      { width: 512, height: 512, center: { lon, lat }, zoom: z + 1 }, 'light');
    ctx.getImageData(0, 0, 1, 1); // the paint is done, not queued
    const ms = performance.now() - t0;
    // What was drawn (outside the timing): pixels that are neither the background nor the earth.
    const d = ctx.getImageData(0, 0, 512, 512).data;
    let drawn = 0;
    for (let i = 0; i < d.length; i += 4) {
      const grey = d[i] === 0xcc && d[i + 1] === 0xcc && d[i + 2] === 0xcc;
      const earth = d[i] === 0xe2 && d[i + 1] === 0xdf && d[i + 2] === 0xda;
      if (!grey && !earth) drawn++;
    }
    return { ms, drawn };
  },
};
`;

/** The demo city's z15 tiles as the engine serves them (decompressed MVT), densest first. */
async function densestTiles(): Promise<{ z: number; x: number; y: number; bytes: Uint8Array }[]> {
  const index = CITIES.findIndex((c) => c.name === 'Chicago');
  const file = path.join(RESULTS, 'demo-chicago.pmtiles');
  writeFileSync(file, demoBasemap(index).bytes);
  const archive = await openPmtiles(file);
  try {
    const info = await archive.info();
    const [w, s, e, n] = info.bounds!;
    const z = RENDER_ZOOM;
    const found: { z: number; x: number; y: number; bytes: Uint8Array }[] = [];
    for (let x = tileX(w, z); x <= tileX(e, z); x++) {
      for (let y = tileY(n, z); y <= tileY(s, z); y++) {
        const tile = await archive.tile({ z, x, y });
        if (tile) found.push({ z, x, y, bytes: tile.bytes });
      }
    }
    return found.sort((a, b) => b.bytes.length - a.bytes.length).slice(0, DENSEST);
  } finally {
    await archive.close();
    rmSync(file, { force: true });
  }
}

async function measureRender(): Promise<boolean> {
  const tiles = await densestTiles();
  const bundle = await build({
    stdin: { contents: PAGE_ENTRY, resolveDir: import.meta.dirname, loader: 'ts' },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const browser = await chromium.launch({
    executablePath: process.env.BLOTTER_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
    for (const t of tiles) {
      await page.evaluate(([key, b64]) => (window as unknown as BenchWindow).__bench.add(key, b64), [
        `${t.z}/${t.x}/${t.y}`,
        Buffer.from(t.bytes).toString('base64'),
      ] as const);
    }
    const render = (t: { z: number; x: number; y: number }) =>
      page.evaluate(([z, x, y]) => (window as unknown as BenchWindow).__bench.render(z, x, y, 15), [
        t.z,
        t.x,
        t.y,
      ] as const);
    for (const t of tiles.slice(0, 4)) await render(t); // warm-up: the JIT, fonts
    const ms: number[] = [];
    const drawn: number[] = [];
    for (let r = 0; r < REPEATS; r++) {
      for (const t of tiles) {
        const one = await render(t);
        ms.push(one.ms);
        drawn.push(one.drawn / (512 * 512));
      }
    }
    const median = quantile(ms, 0.5);
    // A tile that drew nothing was not rendered: the figure would mean nothing.
    const painted = Math.min(...drawn) > 0.02;
    const ok = median <= RENDER_BOUND_MS && painted;
    out({
      bench: 'basemap-render',
      source: 'demo-city',
      zoom: RENDER_ZOOM,
      tilePx: 512,
      tiles: tiles.length,
      renders: ms.length,
      tileBytes: { densest: tiles[0]!.bytes.length, least: tiles.at(-1)!.bytes.length },
      medianMsPerTile: round(median, 1),
      p90MsPerTile: round(quantile(ms, 0.9), 1),
      leastDrawnShare: round(Math.min(...drawn), 3),
      bound: RENDER_BOUND_MS,
      loadAverage: loadavg().map((l) => round(l, 2)),
      ok,
    });
    return ok;
  } finally {
    await browser.close();
  }
}

type BenchWindow = {
  __bench: {
    add(key: string, b64: string): void;
    render(z: number, x: number, y: number, maxZoom: number): Promise<{ ms: number; drawn: number }>;
  };
};

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
  ok = (await measureRender()) && ok;
  process.exitCode = ok ? 0 : 1;
}

void main();
