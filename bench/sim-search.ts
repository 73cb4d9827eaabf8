/**
 * Benchmark: radius-0.01 live searches (max_records 500) over loopback HTTP against a simulator holding
 * 1M incidents. Prints one JSON object; `ok` is whether the median is under the bound.
 * Run: npx tsx bench/sim-search.ts [--incidents N] [--requests N]
 */
import { parseArgs } from 'node:util';
import { startSimulator } from '../src-sim/index';
import { Prng } from '../src-sim/data/prng';

const BOUND_MS = 20;
const { values } = parseArgs({ options: { incidents: { type: 'string' }, requests: { type: 'string' } } });
const incidents = Number(values.incidents ?? 1_000_000);
const requests = Number(values.requests ?? 600);

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
const round = (x: number): number => Math.round(x * 100) / 100;

const sim = await startSimulator({
  scale: incidents,
  seed: 1,
  clock: 'manual',
  now: '2025-11-20T15:00:00Z',
  keys: [
    { key: 'bench-key', plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: 1e9, windowDays: 400 },
  ],
});
try {
  const prng = new Prng(42);
  const weights = sim.cities.map((_, i) => (i === sim.cities.length - 1 ? 0.5 : 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const point = (): { lat: number; lon: number } => {
    let r = prng.next() * total;
    let i = 0;
    while (i < weights.length - 1 && (r -= weights[i] ?? 0) > 0) i++;
    const c = sim.cities[i] ?? sim.cities[0];
    return { lat: (c?.lat ?? 0) + prng.gaussian() * 0.05, lon: (c?.lon ?? 0) + prng.gaussian() * 0.06 };
  };
  const times: number[] = [];
  let results = 0;
  let saturated = 0;
  for (let n = 0; n < requests + 50; n++) {
    const { lat, lon } = point();
    const url = `${sim.url}/crimes.json?lat=${lat.toFixed(5)}&lon=${lon.toFixed(5)}&radius=0.01&max_records=500&key=bench-key`;
    const t0 = performance.now();
    const res = await fetch(url);
    const body = (await res.json()) as { crimes: unknown[] };
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`status ${res.status}`);
    if (n < 50) continue; // warm-up
    times.push(ms);
    results += body.crimes.length;
    if (body.crimes.length === 500) saturated++;
  }
  times.sort((a, b) => a - b);
  const medianMs = percentile(times, 0.5);
  console.log(
    JSON.stringify({
      bench: 'sim-search',
      incidents: sim.incidentCount,
      generationMs: Math.round(sim.generationMs),
      requests,
      radiusDeg: 0.01,
      maxRecords: 500,
      meanResults: Math.round(results / requests),
      saturatedShare: round(saturated / requests),
      medianMs: round(medianMs),
      p95Ms: round(percentile(times, 0.95)),
      maxMs: round(times[times.length - 1] ?? NaN),
      boundMs: BOUND_MS,
      ok: medianMs < BOUND_MS,
    }),
  );
} finally {
  await sim.close();
}
