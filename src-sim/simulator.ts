/** Starting the simulator in-process: generate the data, wire the pipeline, listen on loopback. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeClock } from './clock';
import { evolve } from './data/evolve';
import { generate } from './data/generate';
import { DEMO_PROFILE } from './demo/profile';
import { demoBasemaps } from './demo/provider';
import { Prng } from './data/prng';
import { groundTruth } from './groundTruth';
import { DEFAULT_KEYS, normalizeIp, resolveKey } from './http/access';
import { FaultInjector } from './http/faults';
import { RateLimiter } from './http/rateLimit';
import { createHandler, type ServerDeps } from './http/server';
import { StatsCollector } from './http/stats';
import { validateKeys } from './keys';
import { DEFAULT_LIVE_READING, type LiveReading } from './http/context';
import { SCALES, type Simulator, type SimulatorOptions } from './types';

/** Miles per degree as the spec converts them ("1 mile is about 0.01448 degrees"). */
const DEGREES_PER_MILE = 0.01448;

function liveReading(opts: SimulatorOptions): LiveReading {
  const maxRadiusDeg = opts.maxRadiusDeg ?? DEFAULT_LIVE_READING.maxRadiusDeg;
  if (!(maxRadiusDeg > 0)) throw new RangeError('maxRadiusDeg must be > 0');
  const clamp = opts.radiusClampMi;
  if (clamp !== undefined && !(clamp > 0)) throw new RangeError('radiusClampMi must be > 0');
  return {
    distance: opts.searchDistance ?? DEFAULT_LIVE_READING.distance,
    since: opts.sinceMode ?? DEFAULT_LIVE_READING.since,
    maxRadiusDeg,
    radiusClampDeg: clamp === undefined ? null : clamp * DEGREES_PER_MILE,
  };
}

export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const seed = opts.seed ?? 1;
  const simKeys = validateKeys(opts.keys ?? DEFAULT_KEYS);
  const keys = new Map(simKeys.map((k) => [k.key, resolveKey(k)]));
  const clock = makeClock(opts.clock ?? 'real', opts.now);
  const longestWindow = Math.max(...[...keys.values()].map((k) => k.windowDays));
  const scale = opts.scale ?? 'small';
  const count = typeof scale === 'number' ? scale : SCALES[scale];
  if (!(count >= 0)) throw new RangeError('scale must be a non-negative count or a preset');
  const demo = opts.profile === 'demo';
  const data = generate(
    {
      seed,
      count,
      now: clock.nowMs(),
      spanDays: opts.spanDays ?? Math.max(400, Math.ceil(longestWindow) + 30),
    },
    demo ? DEMO_PROFILE : undefined,
  );
  const limiter = new RateLimiter(opts.rateClock === 'sim' ? () => clock.nowMs() : undefined);
  const faults = new FaultInjector(new Prng(seed).fork(0xfa17), opts.faults);
  const stats = new StatsCollector();
  const deps: ServerDeps = {
    data,
    clock,
    keys,
    limiter,
    faults,
    stats,
    trustedProxies: new Set((opts.trustedProxies ?? []).map(normalizeIp)),
    sinceBeforeWindow: opts.sinceBeforeWindow ?? 'window',
    live: liveReading(opts),
    v1: opts.v1 ?? false,
    v1Variant: opts.v1Variant ?? 'faithful',
    basemap: demo ? demoBasemaps(opts.basemapCity ?? 'San Francisco') : undefined,
  };
  const handler = createHandler(deps);

  const server = createServer(handler);
  server.keepAliveTimeout = 5_000;
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const bigBlock = data.fixtures.bigBlock;

  return {
    url,
    port,
    clock,
    cities: data.store.cities.map((c) => ({
      name: c.name,
      lat: c.lat,
      lon: c.lon,
      timezone: c.timezone,
      ...(c.name === bigBlock.city ? { bigBlock } : {}),
    })),
    bigBlock,
    fixtures: data.fixtures,
    keys: simKeys,
    get incidentCount() {
      return data.store.size;
    },
    generationMs: data.generatedMs,
    basemapUrl: demo ? `${url}/basemap/demo.pmtiles` : null,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      }),
    setFaults: (f) => faults.set(f),
    setV1: (on) => {
      deps.v1 = on;
    },
    faults: () => faults.current,
    evolve: (o) => evolve(data, clock.nowMs(), o),
    groundTruth: (q) => groundTruth(data, clock.nowMs(), keys, q),
    stats: () => stats.snapshot(),
    resetStats: () => stats.reset(),
    resetRateLimits: () => limiter.reset(),
  };
}
