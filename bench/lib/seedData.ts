/**
 * Synthetic incidents for benchmarks and tests: a few US cities in different zones, block
 * addresses on a street grid (some far busier than others, for repeat locations), realistic
 * hour/weekday/season profiles, ~0.5 % removed, ~15 % with a description, and a rare type the
 * app does not know. Deterministic for a given seed. Rows come out in time order, cdid ascending.
 */
import { dayNumber, dayString, weekdayOf } from '../../src-shared/filters';
import { wallToUtc } from '../../src-main/engine/import/zoneClock';
import type { IncidentRow } from '../../src-main/engine/store/incidents/incidentRow';

export type SeedCity = { name: string; lat: number; lon: number; timezone: string; weight: number };

export const SEED_CITIES: readonly SeedCity[] = [
  { name: 'Chicago', lat: 41.8781, lon: -87.6298, timezone: 'America/Chicago', weight: 0.3 },
  { name: 'New York', lat: 40.7128, lon: -74.006, timezone: 'America/New_York', weight: 0.28 },
  { name: 'Denver', lat: 39.7392, lon: -104.9903, timezone: 'America/Denver', weight: 0.14 },
  { name: 'Los Angeles', lat: 34.0522, lon: -118.2437, timezone: 'America/Los_Angeles', weight: 0.18 },
  { name: 'Phoenix', lat: 33.4484, lon: -112.074, timezone: 'America/Phoenix', weight: 0.1 },
];

const TYPES: readonly [string, number][] = [
  ['Theft', 30],
  ['Assault', 15],
  ['Burglary', 12],
  ['Vandalism', 11],
  ['Arrest', 10],
  ['Robbery', 8],
  ['Other', 8],
  ['Shooting', 3],
  ['Arson', 2],
  ['Fraud', 0.3], // not one of CRIME_TYPES: the store keeps whatever the API sends
];
// Local hour profile: quiet before dawn, busiest in the evening.
const HOURS = [6, 5, 4, 3, 2, 2, 3, 4, 5, 6, 6, 7, 8, 8, 8, 8, 9, 10, 10, 10, 9, 9, 8, 7];
// Sunday … Saturday.
const WEEKDAYS = [1.0, 0.9, 0.9, 0.95, 1.0, 1.15, 1.2];
const STREETS = [
  'MAIN',
  'OAK',
  'PINE',
  'MAPLE',
  'CEDAR',
  'ELM',
  'LAKE',
  'HILL',
  'PARK',
  'WASHINGTON',
  'LINCOLN',
  'JACKSON',
  'FRANKLIN',
  'MADISON',
  'JEFFERSON',
  'HARRISON',
  'GRANT',
  'RIVER',
  'CHURCH',
  'MARKET',
  'UNION',
  'CENTER',
  'HIGHLAND',
  'SPRING',
  'WILLOW',
  'BIRCH',
  'ASH',
  'CHESTNUT',
  'WALNUT',
  'SPRUCE',
  'ADAMS',
  'MONROE',
  'CLARK',
  'STATE',
  'HALSTED',
  'ASHLAND',
  'WESTERN',
  'PULASKI',
  'CICERO',
  'KEDZIE',
];
const SUFFIXES = ['ST', 'AVE', 'BLVD', 'DR', 'RD', 'PL'];
const DIRS = ['N', 'S', 'E', 'W'];
const DESCRIPTIONS = [
  'Victim reported property taken from a parked vehicle.',
  'Suspect fled on foot toward the park before officers arrived.',
  'Window broken at the rear entrance; nothing reported missing.',
  'Two people argued outside a bar; one was treated at the scene.',
  'Caller reported shots heard near the intersection; casings recovered.',
  'Bicycle stolen from a rack in front of the library.',
  'Graffiti sprayed on the side of a commercial building overnight.',
  'Small fire set in a dumpster behind the grocery store.',
  'Arrest made after a traffic stop; warrant confirmed.',
  'Package theft from a porch captured on a doorbell camera.',
];

/** mulberry32: same seed, same sequence. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function picker(weights: readonly number[], rand: () => number): () => number {
  const total = weights.reduce((a, b) => a + b, 0);
  let sum = 0;
  const cum = weights.map((w) => (sum += w / total));
  return () => {
    const u = rand();
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cum[mid] as number) < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export type SeedAddress = { city: number; address: string; lat: number; lon: number };

/** Each city's block addresses on a grid around its centre (≈ 5 miles across). */
export function seedAddresses(perCity: number, rand: () => number): SeedAddress[] {
  const out: SeedAddress[] = [];
  SEED_CITIES.forEach((city, c) => {
    const seen = new Set<string>();
    while (seen.size < perCity) {
      const street = STREETS[Math.floor(rand() * STREETS.length)] as string;
      const dir = DIRS[Math.floor(rand() * DIRS.length)] as string;
      const suffix = SUFFIXES[(street.length + dir.length) % SUFFIXES.length] as string;
      const block = Math.floor(rand() * 120) * 100;
      const address = `${block} BLOCK OF ${dir} ${street} ${suffix}`;
      if (seen.has(address)) continue;
      seen.add(address);
      const gx = ((STREETS.indexOf(street) / STREETS.length) * 2 - 1) * 0.06 + (rand() - 0.5) * 0.01;
      const gy = ((block / 12_000) * 2 - 1) * 0.06 * (dir === 'S' || dir === 'W' ? -1 : 1);
      const ew = dir === 'E' || dir === 'W';
      out.push({ city: c, address, lat: city.lat + (ew ? gx : gy), lon: city.lon + (ew ? gy : gx) * 1.3 });
    }
  });
  return out;
}

/** A seeded incident: every stored column but source (the seed's rows are the API's). */
export type SeedIncident = Omit<IncidentRow, 'source'>;

export type GenerateOptions = { count: number; seed: number; endDay: string; days: number };

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** Yields `count` incidents over the `days` local days ending on `endDay`, in time order. */
export function* generateIncidents(opts: GenerateOptions): Generator<SeedIncident> {
  const rand = prng(opts.seed);
  const addresses = seedAddresses(Math.max(20, Math.min(12_000, Math.ceil(opts.count / 60))), rand);
  const byCity = SEED_CITIES.map((_, c) => addresses.filter((a) => a.city === c));
  const pickCity = picker(
    SEED_CITIES.map((c) => c.weight),
    rand,
  );
  const pickType = picker(
    TYPES.map(([, w]) => w),
    rand,
  );
  const pickHour = picker(HOURS, rand);
  const end = dayNumber(opts.endDay);
  const first = end - opts.days + 1;
  /** Noon (UTC) of the last day: no sync has seen an incident later than that. */
  const horizon = end * 86_400_000 + 12 * 3_600_000;
  const dayWeights = Array.from({ length: opts.days }, (_, i) => {
    const d = first + i;
    const season = 1 + 0.25 * Math.sin(((d % 365.25) / 365.25) * 2 * Math.PI - 1.9);
    return season * (WEEKDAYS[weekdayOf(d)] as number);
  });
  const weightSum = dayWeights.reduce((a, b) => a + b, 0);
  let cdid = 10_000_000;
  let cumWeight = 0;
  let made = 0;
  for (let i = 0; i < opts.days; i++) {
    cumWeight += dayWeights[i] as number;
    const n = Math.round((opts.count * cumWeight) / weightSum) - made;
    const day = first + i;
    const dayText = dayString(day);
    const minutes = Array.from({ length: n }, () => pickHour() * 60 + Math.floor(rand() * 60)).sort(
      (a, b) => a - b,
    );
    for (const minute of minutes) {
      const city = SEED_CITIES[pickCity()] as SeedCity;
      const pool = byCity[SEED_CITIES.indexOf(city)] as SeedAddress[];
      const place = pool[Math.floor(pool.length * rand() ** 3)] as SeedAddress; // a few blocks dominate
      const type = (TYPES[pickType()] as [string, number])[0];
      const hour = Math.floor(minute / 60);
      const { utcMs: utc, flag } = wallToUtc(day * 86_400_000 + minute * 60_000, city.timezone);
      const y = dayText.slice(2, 4);
      const h12 = hour % 12 === 0 ? 12 : hour % 12;
      // Seen by a sync, so never after the seed's horizon (imports refuse times in the future).
      const seen = Math.min(utc + (1 + Math.floor(rand() * 48)) * 3_600_000, horizon);
      const described = rand() < 0.15;
      const removed = rand() < 0.005;
      cdid += 1 + Math.floor(rand() * 3);
      yield {
        cdid,
        type,
        address: place.address,
        lat: place.lat + (rand() - 0.5) * 0.0008,
        lon: place.lon + (rand() - 0.5) * 0.0008,
        link: `https://crimes.example.test/crime/${cdid}`,
        date_raw: `${dayText.slice(5, 7)}/${dayText.slice(8, 10)}/${y} ${pad2(h12)}:${pad2(minute % 60)} ${hour < 12 ? 'AM' : 'PM'}`,
        occurred_local: `${dayText}T${pad2(hour)}:${pad2(minute % 60)}`,
        timezone: city.timezone,
        occurred_utc: utc,
        time_flag: flag,
        local_day: dayText,
        local_hour: hour,
        local_weekday: weekdayOf(day),
        description: described ? (DESCRIPTIONS[Math.floor(rand() * DESCRIPTIONS.length)] as string) : null,
        description_fetched_at: described ? seen : null,
        first_seen: seen,
        last_seen: Math.min(seen + Math.floor(rand() * 5) * 86_400_000, horizon),
        removed_at: removed ? Math.min(seen + 86_400_000, horizon) : null,
        removed_reason: removed ? 'absent from a complete re-query' : null,
        subtype: null,
      };
      made++;
    }
  }
}
