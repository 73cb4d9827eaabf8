/**
 * The demo profile's data: the test profile's incident process (rhythms of hour and weekday, types
 * shifting to violence at night, report lags) in one city, San Francisco, every incident at a block
 * of a real named street of the demo basemap (sanFrancisco.ts: none in water or parks, repeat places
 * and near-repeat chains), with that block's address ("1200 BLOCK OF MISSION ST") — and none of the
 * test fixtures (no 650-at-one-block day, no hostile addresses, no DST set pieces) — so its trend,
 * hour × weekday grid, heat map and top locations look like a city's.
 */
import type { Fixtures } from '../data/fixtures';
import type { Dataset, GenerateOptions } from '../data/generate';
import { makeProcess, runProcess } from '../data/occurrences';
import { Prng } from '../data/prng';
import { Store } from '../data/store';
import { DAY, ZoneTable } from '../data/timeZones';
import { DEMO_CITIES, demoAddress, makeDemoPlacer } from './sanFrancisco';

/** The demo's permalink site (reserved, non-resolving): every link and export row says "synthetic". */
export const DEMO_SITE = 'https://synthetic-demo.crime.example.test';

/** The demo has no fixtures; this says so in the Fixtures shape (a big block of 0 incidents). */
export function noFixtures(): Fixtures {
  const c = DEMO_CITIES[0];
  return {
    bigBlock: { city: c?.name ?? '', lat: c?.lat ?? 0, lon: c?.lon ?? 0, address: '', date: '', count: 0 },
    specialAddresses: [],
    dstRepeatedHour: [],
  };
}

export function generateDemo(opts: GenerateOptions): Dataset {
  const t0 = performance.now();
  const prng = new Prng(opts.seed);
  const evolvePrng = prng.fork(0x5eed);
  const start = opts.now - opts.spanDays * DAY;
  const zones = DEMO_CITIES.map((c) => new ZoneTable(c.timezone, start - 3 * DAY, opts.now + 400 * DAY));
  const store = new Store(zones, DEMO_CITIES, demoAddress);
  // Its addresses are real streets, so its links say what the incidents are.
  store.site = DEMO_SITE;
  store.reserve(Math.ceil(opts.count * 1.05) + 2000);
  const process = {
    ...makeProcess(opts.count, opts.now - start, start, DEMO_CITIES),
    place: makeDemoPlacer(),
  };
  runProcess(store, process, opts.now, prng);
  return {
    store,
    process,
    fixtures: noFixtures(),
    fixtureRows: new Set(),
    evolvePrng,
    generatedMs: performance.now() - t0,
  };
}
