/**
 * The engine thread's longest stretch (no turn of its event loop) during CompStat over the seeded
 * areas and repeat locations by block address, on a seeded archive (issue 31). A timer every 1 ms
 * records the gaps; the control is the same timer with nothing to do. Bound: no stretch over 50 ms.
 *
 *   npx tsx bench/analysisSlices.ts [--count 1000000]
 */
import { seedDatabase } from './seed';
import { dbFileOf, logFileOf } from '../src-main/engine/dataDir';
import { createEngine } from '../src-main/engine/engine';
import { configureLogging } from '../src-main/engine/log';
import { createMemorySecretStore } from '../src-main/engine/secrets/memorySecretStore';
import { makeTempDir } from '../src-main/engine/testing/tempDir';

const i = process.argv.indexOf('--count');
const count = i >= 0 ? Number(process.argv[i + 1]) : 1_000_000;
const END_DAY = '2026-01-10';

const dir = makeTempDir('blotter-analysis-slices-');
seedDatabase(dbFileOf(dir.path), { count, seed: 11, endDay: END_DAY, days: 730 });
configureLogging({ file: logFileOf(dir.path), stderr: false });
const engine = createEngine({
  dataDir: dir.path,
  secrets: createMemorySecretStore(),
  host: 'cli',
  version: 'bench',
  emit: () => undefined,
});
const call = async (name: string, input: unknown) => {
  const r = (await engine.dispatch(name as never, input as never)) as { ok: boolean; error?: unknown };
  if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
  return r;
};
await call('countIncidents', { filters: {} }); // the snapshot loaded beforehand

async function timed(name: string, job: () => Promise<unknown>): Promise<void> {
  let longest = 0;
  let last = performance.now();
  let running = true;
  const long: string[] = [];
  const t0 = performance.now();
  const tick = () => {
    const now = performance.now();
    if (now - last > 50) long.push(`${Math.round(last - t0)}+${Math.round(now - last)}`);
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  await job();
  const ms = Math.round(performance.now() - t0);
  running = false;
  tick();
  console.log(
    JSON.stringify({
      bench: `analysis-slices-${name}`,
      incidents: count,
      ms,
      longestStretchMs: Math.round(longest),
      ok: longest <= 50,
      stretchesOver50: long,
    }),
  );
}

await timed('idle', () => new Promise((done) => setTimeout(done, 2000)));
await timed('compStat', () => call('analyzeCompStat', { filters: {}, asOf: END_DAY }));
await timed('repeatLocations', () => call('analyzeRepeatLocations', { filters: {} }));
await timed('repeatLocations-again', () => call('analyzeRepeatLocations', { filters: {} }));
await engine.close();
configureLogging({ file: null, stderr: true });
dir.remove();
