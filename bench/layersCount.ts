/**
 * Counting near a reference layer's features (engine/boundaries/countNear.ts) over 1M incidents
 * in one city: 2,000 schools within 1,000 ft, and 300 beats (polygons of 40 corners) within 500 ft
 * and inside. The counting as the engine thread runs it (the match set's two columns in, counts
 * out), the grid built each time. Bound: 2,000 ms each (the call yields every ~30 ms, so other
 * calls keep being answered meanwhile).
 *
 *   npx tsx bench/layersCount.ts [--count 1000000]
 */
import { loadavg } from 'node:os';
import type { LatLon } from '../src-shared/geo';
import { countNearPoints, type CountFeature } from '../src-main/engine/boundaries/countNear';

const i = process.argv.indexOf('--count');
const count = i >= 0 ? Number(process.argv[i + 1]) : 1_000_000;

let seed = 17;
const r = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
const lat = new Float64Array(count);
const lon = new Float64Array(count);
for (let k = 0; k < count; k++) {
  lat[k] = 41.65 + r() * 0.4;
  lon[k] = -87.85 + r() * 0.3;
}
const schools: CountFeature[] = Array.from({ length: 2000 }, (_, k) => ({
  id: k,
  name: `school ${k}`,
  geometry: { kind: 'points', points: [[41.65 + r() * 0.4, -87.85 + r() * 0.3]] },
}));
const beats: CountFeature[] = [];
for (let y = 0; y < 20; y++)
  for (let x = 0; x < 15; x++) {
    const ring: LatLon[] = Array.from({ length: 40 }, (_, k) => {
      const a = (k / 40) * 2 * Math.PI;
      return [41.66 + y * 0.02 + 0.009 * Math.sin(a), -87.84 + x * 0.02 + 0.009 * Math.cos(a)];
    });
    beats.push({
      id: beats.length,
      name: `beat ${beats.length}`,
      geometry: { kind: 'polygons', polygons: [[ring]] },
    });
  }

async function time(name: string, features: CountFeature[], metres: number): Promise<void> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const got = await countNearPoints(
    lat,
    lon,
    features,
    metres,
    () => new Promise((done) => setImmediate(done)),
  );
  const ms = Math.round(performance.now() - t0);
  const cpu = process.cpuUsage(c0);
  const cpuMs = Math.round((cpu.user + cpu.system) / 1000);
  console.log(
    JSON.stringify({
      bench: `layers-count-${name}`,
      incidents: count,
      features: features.length,
      metres,
      total: got.total,
      ms,
      cpuMs,
      bound: 2000,
      ok: ms <= 2000,
      load: loadavg().map((l) => Math.round(l * 10) / 10),
    }),
  );
}

await time('schools-1000ft', schools, 304.8);
await time('beats-500ft', beats, 152.4);
await time('beats-inside', beats, 0);
