/**
 * The demo profile's data: the same incident process as the test profile (cities, rhythms, types,
 * report lags), but every incident on land and on the street its address names (demo/place.ts), and
 * none of the test fixtures (no 650-at-one-block day, no hostile addresses, no DST set pieces) —
 * so its trend, hour × weekday grid, heat map and top locations look like a city's.
 */
import { CITIES } from '../data/cities';
import type { Fixtures } from '../data/fixtures';
import type { Dataset, GenerateOptions } from '../data/generate';
import { makeProcess, runProcess } from '../data/occurrences';
import { Prng } from '../data/prng';
import { Store } from '../data/store';
import { DAY, ZoneTable } from '../data/timeZones';
import { drawDemoPlace } from './place';

/** The demo has no fixtures; this says so in the Fixtures shape (a big block of 0 incidents). */
export function noFixtures(): Fixtures {
  const c = CITIES[0];
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
  const zones = CITIES.map((c) => new ZoneTable(c.timezone, start - 3 * DAY, opts.now + 400 * DAY));
  const store = new Store(zones);
  store.reserve(Math.ceil(opts.count * 1.05) + 2000);
  const process = { ...makeProcess(opts.count, opts.now - start, start), place: drawDemoPlace };
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
