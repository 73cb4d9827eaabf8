/**
 * The demo's API: Blotter's simulator (src-sim) in this process, on 127.0.0.1 at a free port, with
 * one random key allowed only from this computer's loopback addresses. Its incidents are generated
 * as of the demo's start clock (the marker's simStart), so the same demo folder always meets the
 * same synthetic city.
 */
import { randomBytes } from 'node:crypto';
import { startSimulator, type SimCity, type Simulator } from '../../src-sim/index';
import type { DemoConfig } from './config';

export type DemoSimulator = { sim: Simulator; key: string; city: SimCity };

export async function startDemoSimulator(config: DemoConfig, simStart: number): Promise<DemoSimulator> {
  const key = `blotter-demo-${randomBytes(12).toString('base64url')}`;
  const sim = await startSimulator({
    host: '127.0.0.1',
    port: 0,
    seed: config.seed,
    scale: config.scale,
    now: simStart,
    clock: 'real',
    v1: false,
    // Incidents on land and on their streets, and the city's streets as a vector PMTiles served
    // with range requests at sim.basemapUrl (downloaded by the demo like any basemap source).
    profile: 'demo',
    basemapCity: config.city,
    faults: { latencyMs: config.latencyMs },
    keys: [
      {
        key,
        plan: config.plan,
        ips: ['127.0.0.1', '::1'],
        ratePerMinute: config.ratePerMinute,
        windowDays: config.windowDays,
      },
    ],
  });
  const city = sim.cities.find((c) => c.name === config.city);
  if (!city) {
    await sim.close();
    throw new Error(`The simulator has no city named ${config.city}.`);
  }
  return { sim, key, city };
}

const LOOPBACK = ['127.0.0.1', 'localhost', '::1'];

/**
 * With HTTPS_PROXY/HTTP_PROXY set, the engine sends API requests through the proxy — but the
 * simulator is on this computer's loopback, which no proxy can reach. Adds the loopback names to
 * NO_PROXY (engines started from now on inherit it). Changes nothing when no proxy is set.
 */
export function bypassProxyForLoopback(env: NodeJS.ProcessEnv = process.env): void {
  if (!(env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy)) return;
  for (const name of ['NO_PROXY', 'no_proxy'] as const) {
    const have = (env[name] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    env[name] = [...have, ...LOOPBACK.filter((h) => !have.includes(h))].join(',');
  }
}
