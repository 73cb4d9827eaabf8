/**
 * Reading a kept 2M-corner reference layer (500 beats of 4,000 corners) on the engine's call path:
 * getLayerFeatures (the map drawing it) and countNearLayer (counts within 500 ft of each beat)
 * over the seeded incidents. Prints each call's time and the engine thread's longest stretch
 * without a turn of its event loop meanwhile (a timer every 1 ms records the gaps).
 * The getLayerFeatures figures include sending the answer to a host as the engine worker does
 * (worker.ts): Electron's copy (a structured clone) and the web host's (typed arrays as base64
 * bytes written in slices, moved), each posted to a thread standing in for the host.
 * Then a filter by one 250k-corner feature (500 ft around it): its first query and the next.
 * Bound: no stretch over 100 ms.
 *
 *   npx tsx bench/layerReads.ts [--count 200000]
 */
import { Worker } from 'node:worker_threads';
import { toWireValueInSlices } from '../src-shared/wire';
import { yieldToEventLoop } from '../src-main/engine/eventLoop';
import { wavyRing } from '../src-shared/geo/rings.testing';
import { LayerService } from '../src-main/engine/boundaries/service';
import { layerHandlers } from '../src-main/engine/handlers/layers';
import type { EngineContext } from '../src-main/engine/context';
import { closeFixture, openFixture } from '../src-main/engine/query/testFixtures';

const i = process.argv.indexOf('--count');
const count = i >= 0 ? Number(process.argv[i + 1]) : 200_000;
const BEATS = 500;

const f = openFixture({ count });
const layers = new LayerService({ db: f.db, dataDir: f.dir.path, query: f.service });
const layer = layers.store.create(
  {
    format: 'geojson',
    crs: 'EPSG:4326',
    fields: ['name'],
    skipped: [],
    features: Array.from({ length: BEATS }, (_, k) => ({
      index: k + 1,
      properties: { name: `beat ${k + 1}` },
      geometry: {
        kind: 'polygons' as const,
        polygons: [[wavyRing(3999, 41.7 + (k % 25) * 0.02, -87.9 + Math.floor(k / 25) * 0.02, 0.008)]],
      },
    })),
  },
  { name: 'Beats', nameField: 'name', sourceName: 'beats.geojson' },
  Date.now(),
);
const ctx = { services: { layers } } as unknown as EngineContext;
await f.service.resolve({ preset: 'all' }); // the snapshot loaded beforehand

async function timed(name: string, job: () => Promise<unknown>, corners = BEATS * 3999): Promise<void> {
  let longest = 0;
  let last = performance.now();
  let running = true;
  const long: string[] = [];
  const tick = () => {
    const now = performance.now();
    if (now - last > 50) long.push(`${Math.round(last - t0)}+${Math.round(now - last)}`);
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await job();
  const ms = Math.round(performance.now() - t0);
  const cpu = process.cpuUsage(c0);
  running = false;
  tick();
  console.log(
    JSON.stringify({
      bench: `layer-reads-${name}`,
      corners,
      incidents: count,
      ms,
      engineCpuMs: Math.round((cpu.user + cpu.system) / 1000),
      longestStretchMs: Math.round(longest),
      ok: longest <= 100,
      stretchesOver50: long,
    }),
  );
}

// The control: the same timer with nothing to do (on a loaded machine its gaps are the scheduler's).
await timed('idle', () => new Promise((done) => setTimeout(done, 3000)));
// The host: a thread that takes each message in and says so (its copy in is its own thread's work).
const host = new Worker(
  "require('node:worker_threads').parentPort.on('message', () => require('node:worker_threads').parentPort.postMessage(1))",
  { eval: true },
);
const sent = (message: unknown, transfer: ArrayBuffer[] = []): Promise<void> =>
  new Promise((done) => {
    host.once('message', () => done());
    host.postMessage(message, transfer);
  });
await timed('getLayerFeatures-to-electron', async () => {
  const result = await layerHandlers.getLayerFeatures({ layerId: layer.id }, ctx);
  await sent({ id: 1, result });
});
await timed('getLayerFeatures-to-web', async () => {
  const result = await layerHandlers.getLayerFeatures({ layerId: layer.id }, ctx);
  const transfer: ArrayBuffer[] = [];
  const wire = await toWireValueInSlices(result, transfer, yieldToEventLoop);
  await sent({ id: 1, result: wire }, transfer);
});
await host.terminate();
await timed('countNearLayer', () =>
  layerHandlers.countNearLayer({ filters: { preset: 'all' }, layerId: layer.id, bufferM: 152.4 }, ctx),
);

// A filter by one 250k-corner feature with 500 ft around it (featureRegion.ts): the first query,
// then the next filter click over the same feature (another preset).
const big = layers.store.create(
  {
    format: 'geojson',
    crs: 'EPSG:4326',
    fields: ['name'],
    skipped: [],
    features: [
      {
        index: 1,
        properties: { name: 'district 1' },
        geometry: { kind: 'polygons' as const, polygons: [[wavyRing(250_000, 41.85, -87.7, 0.03)]] },
      },
    ],
  },
  { name: 'Districts', nameField: 'name', sourceName: 'districts.geojson' },
  Date.now(),
);
const district = { layerId: big.id, featureId: layers.store.featureNames(big.id)[0]!.id, bufferM: 152.4 };
let matched = 0;
await timed(
  'featureFilter-first',
  async () => (matched = (await f.service.resolve({ preset: 'all', feature: district })).set.rows.length),
  250_000,
);
await timed('featureFilter-next', () => f.service.resolve({ preset: '90d', feature: district }), 250_000);
console.log(JSON.stringify({ bench: 'layer-reads-featureFilter-matched', incidents: matched }));
layers.close();
await closeFixture(f);
