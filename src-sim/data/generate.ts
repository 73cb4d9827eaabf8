/**
 * Builds the whole dataset from a seed and a profile: same (profile, seed, count, now, spanDays), same
 * incidents. The one loop for every profile; what differs between profiles is data (`Profile`).
 */
import { CITIES, type CityDef } from './cities';
import { addFixtures, type Fixtures } from './fixtures';
import { drawPlace, makeProcess, runProcess, type Process } from './occurrences';
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

/** Where incidents happen: a block point in city `cityIndex`. */
export type Placer = (cityIndex: number, prng: Prng) => { lat: number; lon: number };

/** What one profile's data is made of; the process (rhythms, types, lags, cdids) is the same for all. */
export type Profile = {
  /** The store's cities (`city` indexes them), each with its zone and share of the incidents. */
  cities: readonly CityDef[];
  /** A fresh placer for one data set (a placer may keep state, as the demo's near-repeat chains do). */
  makePlacer: () => Placer;
  /** How a block is named by its point; absent: the synthetic grid address of data/addresses.ts. */
  addressOf?: (lat: number, lon: number, city: number) => string;
  /** The permalink site; absent: the simulated service's. */
  site?: string;
  /** Incidents placed on purpose after the process, drawing on from its stream. */
  addFixtures: (store: Store, process: Process, prng: Prng, start: number, now: number) => Fixtures;
};

/** The test profile: the six test cities, hot spots and scatter, grid addresses, every fixture. */
export const TEST_PROFILE: Profile = {
  cities: CITIES,
  makePlacer: () => drawPlace,
  addFixtures,
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

export function generate(opts: GenerateOptions, profile: Profile = TEST_PROFILE): Dataset {
  const t0 = performance.now();
  const prng = new Prng(opts.seed);
  const evolvePrng = prng.fork(0x5eed);
  const start = opts.now - opts.spanDays * DAY;
  const zones = profile.cities.map((c) => new ZoneTable(c.timezone, start - 3 * DAY, opts.now + 400 * DAY));
  const store = new Store(zones, profile.cities, profile.addressOf);
  store.site = profile.site;
  store.reserve(Math.ceil(opts.count * 1.05) + 2000);
  const process: Process = {
    ...makeProcess(opts.count, opts.now - start, start, profile.cities),
    place: profile.makePlacer(),
  };
  runProcess(store, process, opts.now, prng);
  const firstFixture = store.size;
  const fixtures = profile.addFixtures(store, process, prng, start, opts.now);
  const fixtureRows = new Set<number>();
  for (let r = firstFixture; r < store.size; r++) fixtureRows.add(r);
  return { store, process, fixtures, fixtureRows, evolvePrng, generatedMs: performance.now() - t0 };
}
