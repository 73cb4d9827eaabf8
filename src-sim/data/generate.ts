/** Builds the whole dataset from a seed: same (seed, count, now, spanDays), same incidents. */
import { CITIES } from './cities';
import { addFixtures, type Fixtures } from './fixtures';
import { makeProcess, runProcess, type Process } from './occurrences';
import { Prng } from './prng';
import { Store } from './store';
import { DAY, ZoneTable } from './timeZones';

export type GenerateOptions = {
  seed: number;
  /** Target number of generated incidents over the span (the fixtures come on top). */
  count: number;
  /** The clock at generation: occurrences run up to here. */
  now: number;
  /** How far back the archive reaches, in days. */
  spanDays: number;
};

export type Dataset = {
  store: Store;
  process: Process;
  fixtures: Fixtures;
  /** Rows of the fixtures (never amended or removed by evolve). */
  fixtureRows: Set<number>;
  /** The stream evolve draws from. */
  evolvePrng: Prng;
  generatedMs: number;
};

export function generate(opts: GenerateOptions): Dataset {
  const t0 = performance.now();
  const prng = new Prng(opts.seed);
  const evolvePrng = prng.fork(0x5eed);
  const start = opts.now - opts.spanDays * DAY;
  const zones = CITIES.map((c) => new ZoneTable(c.timezone, start - 3 * DAY, opts.now + 400 * DAY));
  const store = new Store(zones);
  store.reserve(Math.ceil(opts.count * 1.05) + 2000);
  const process = makeProcess(opts.count, opts.now - start, start);
  runProcess(store, process, opts.now, prng);
  const firstFixture = store.size;
  const fixtures = addFixtures(store, process, prng, start, opts.now);
  const fixtureRows = new Set<number>();
  for (let r = firstFixture; r < store.size; r++) fixtureRows.add(r);
  return { store, process, fixtures, fixtureRows, evolvePrng, generatedMs: performance.now() - t0 };
}
