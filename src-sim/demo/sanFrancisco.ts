/**
 * The demo's city: San Francisco on its real streets (realStreets.ts). One city, so every demo
 * incident is on the archive's map. Where an incident happens: a block drawn in proportion to the
 * street length it stands for (denser where the streets are), more on major streets, far more near
 * the city's busy districts (hot spots), with a heavy-tailed per-block weight (repeat places: a few
 * blocks see many incidents) and near-repeat chains (now and then the next incident is a block
 * close to the previous one). Every address and point is synthetic in what happened, real in where.
 */
import type { CityDef, HotSpot } from '../data/cities';
import type { Prng } from '../data/prng';
import { blockHash, decodeStreetTiles, sfArchiveBytes, streetBlocks, type Block } from './realStreets';

const HOT_SPOTS: HotSpot[] = [
  { lat: 37.7838, lon: -122.414, weight: 9, spreadDeg: 0.004 }, // Tenderloin
  { lat: 37.7868, lon: -122.4065, weight: 6, spreadDeg: 0.004 }, // Union Square / Market St
  { lat: 37.7795, lon: -122.4075, weight: 5, spreadDeg: 0.005 }, // SoMa, 6th St
  { lat: 37.765, lon: -122.4195, weight: 5, spreadDeg: 0.004 }, // Mission, 16th St
  { lat: 37.7525, lon: -122.4183, weight: 3, spreadDeg: 0.004 }, // Mission, 24th St
  { lat: 37.7305, lon: -122.3925, weight: 2, spreadDeg: 0.006 }, // Bayview, 3rd St
  { lat: 37.8075, lon: -122.4165, weight: 2, spreadDeg: 0.004 }, // Fisherman's Wharf
];

export const SAN_FRANCISCO: CityDef = {
  name: 'San Francisco',
  lat: 37.7793,
  lon: -122.4193,
  timezone: 'America/Los_Angeles',
  weight: 1,
  spreadDeg: 0.03,
  hotShare: 0.35,
  hotSpots: HOT_SPOTS,
};

/** The demo profile's cities (its store's city 0). */
export const DEMO_CITIES: readonly CityDef[] = [SAN_FRANCISCO];

const NEAR_REPEAT = 0.12;
const CELL_DEG = 0.004;
const cellKey = (lat: number, lon: number) => `${Math.floor(lat / CELL_DEG)},${Math.floor(lon / CELL_DEG)}`;

export type DemoStreets = {
  blocks: readonly Block[];
  /** Cumulative draw weights of the blocks. */
  cumulative: Float64Array;
  /** Blocks by 0.004° cell (near-repeat neighbours). */
  cells: Map<string, number[]>;
  /** A block's address from its point (exact, as stored); null for a point that is no block. */
  addressAt(lat: number, lon: number): string | null;
  ms: number;
};

let streets: DemoStreets | null = null;

/** The blocks and their weights, computed once per process from the archive (a few hundred ms). */
export function demoStreets(): DemoStreets {
  if (streets) return streets;
  const t0 = performance.now();
  const blocks = streetBlocks(decodeStreetTiles(sfArchiveBytes()));
  const cumulative = new Float64Array(blocks.length);
  const cells = new Map<string, number[]>();
  const byPoint = new Map<string, string>();
  let sum = 0;
  blocks.forEach((b, i) => {
    const kx = Math.cos((b.lat * Math.PI) / 180);
    let hot = 0;
    for (const s of HOT_SPOTS) {
      const d2 = ((b.lat - s.lat) ** 2 + ((b.lon - s.lon) * kx) ** 2) / (2 * s.spreadDeg ** 2);
      hot += s.weight * Math.exp(-d2);
    }
    const repeat = Math.min(40, blockHash(i) ** -0.6);
    sum += b.length * (b.major ? 2.5 : 1) * (0.4 + hot) * repeat;
    cumulative[i] = sum;
    const key = cellKey(b.lat, b.lon);
    const list = cells.get(key) ?? [];
    list.push(i);
    cells.set(key, list);
    byPoint.set(`${b.lat},${b.lon}`, b.address);
  });
  streets = {
    blocks,
    cumulative,
    cells,
    addressAt: (lat, lon) => byPoint.get(`${lat},${lon}`) ?? null,
    ms: performance.now() - t0,
  };
  return streets;
}

function pick(cum: Float64Array, r: number): number {
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (r < (cum[mid] ?? 0)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** A placer for one data set: its near-repeat chain follows the sequence of draws (seeded, deterministic). */
export function makeDemoPlacer(): (cityIndex: number, prng: Prng) => { lat: number; lon: number } {
  const s = demoStreets();
  let last = -1;
  return (_city, prng) => {
    let i: number;
    if (last >= 0 && prng.next() < NEAR_REPEAT) {
      const b = s.blocks[last]!;
      const near = s.cells.get(cellKey(b.lat, b.lon)) ?? [last];
      i = near[prng.int(0, near.length - 1)] ?? last;
    } else {
      i = pick(s.cumulative, prng.next() * (s.cumulative[s.cumulative.length - 1] ?? 0));
    }
    last = i;
    const b = s.blocks[i]!;
    return { lat: b.lat, lon: b.lon };
  };
}

/** The demo store's addresses: the block's own ("1200 BLOCK OF MISSION ST"), else the nearest block's. */
export function demoAddress(lat: number, lon: number): string {
  const s = demoStreets();
  const exact = s.addressAt(lat, lon);
  if (exact !== null) return exact;
  let best = Infinity;
  let address = '';
  for (const b of s.blocks) {
    const d = (b.lat - lat) ** 2 + (b.lon - lon) ** 2;
    if (d < best) [best, address] = [d, b.address];
  }
  return address;
}
