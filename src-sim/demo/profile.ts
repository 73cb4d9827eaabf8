/**
 * The demo profile's data, as a profile of the one generator (data/generate.ts): the test profile's
 * incident process (rhythms of hour and weekday, types shifting to violence at night, report lags) in
 * one city, San Francisco, every incident at a block of a real named street of the demo basemap
 * (sanFrancisco.ts: none in water or parks, repeat places and near-repeat chains), with that block's
 * address ("1200 BLOCK OF MISSION ST") — and none of the test fixtures (no 650-at-one-block day, no
 * hostile addresses, no DST set pieces) — so its trend, hour × weekday grid, heat map and top
 * locations look like a city's.
 */
import type { Fixtures } from '../data/fixtures';
import type { Profile } from '../data/generate';
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

export const DEMO_PROFILE: Profile = {
  cities: DEMO_CITIES,
  makePlacer: makeDemoPlacer,
  addressOf: demoAddress,
  // Its addresses are real streets, so its links say what the incidents are.
  site: DEMO_SITE,
  addFixtures: noFixtures,
};
