/**
 * The offline locator (src-main/engine/import/places/locator.ts) at scale: a reference of 1,000,000 block
 * addresses with coordinates (a synthetic grid city: 1,000 north–south and 1,000 east–west
 * streets, numbered both ways from their baselines as Chicago's are, each known block a distinct
 * address), then 100,000 addresses placed: blocks the reference holds, blocks between known ones,
 * house numbers and intersections. Figure: the time of both (building the index from the texts
 * and placing), bound ≤ 10 s. The work is one thread's, so its CPU time is what the wall clock
 * reads on a machine to itself; `ok` holds the CPU time to the bound (on a 2-core machine shared
 * with other sessions the wall clock reads several times that), the wall time is printed beside it.
 * `npx tsx bench/place.ts [--reference N] [--addresses N]`
 */
import { loadavg } from 'node:os';
import { Locator } from '../src-main/engine/import/places/locator';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const REFERENCE = arg('--reference', 1_000_000);
const ADDRESSES = arg('--addresses', 100_000);
const BOUND_MS = 10_000;

// A deterministic pseudo-random sequence (mulberry32).
let seed = 28;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const ORIGIN = { lat: 41.88, lon: -87.63 };
const DEG_PER_100 = 0.0018; // about 200 m a hundred block
const STREETS = 1000;
const suffixes = ['AVE', 'ST', 'BLVD', 'PL', 'DR'];
const nameOf = (k: number) => `STREET${k} ${suffixes[k % suffixes.length]}`;
const blockText = (dir: string, k: number, block: number) =>
  `${String(block / 100).padStart(3, '0')}XX ${dir} ${nameOf(k)}`;

/** A block on street k (north–south when k < STREETS) at a signed hundred block b: its text and point. */
function block(k: number, b: number): { text: string; lat: number; lon: number } {
  const ns = k < STREETS;
  const dir = ns ? (b < 0 ? 'S' : 'N') : b < 0 ? 'W' : 'E';
  const along = (b + (b < 0 ? -0.5 : 0.5)) * DEG_PER_100;
  const across = ((k % STREETS) - STREETS / 2) * DEG_PER_100 * 0.5;
  const jitter = () => (random() - 0.5) * DEG_PER_100 * 0.3;
  return {
    text: blockText(dir, ns ? k : k, Math.abs(b) * 100),
    lat: ORIGIN.lat + (ns ? along : across) + jitter(),
    lon: ORIGIN.lon + (ns ? across : along) + jitter(),
  };
}

const perStreet = Math.ceil(REFERENCE / (2 * STREETS));
const reference: { text: string; lat: number; lon: number }[] = [];
for (let k = 0; k < 2 * STREETS && reference.length < REFERENCE; k++)
  for (let j = 0; j < perStreet && reference.length < REFERENCE; j++) {
    // Blocks −250…249 of each street, every one but each 10th (left for interpolation).
    const b = j - Math.floor(perStreet / 2);
    if (((b % 10) + 10) % 10 === 3) continue;
    reference.push(block(k, b));
  }
while (reference.length < REFERENCE) reference.push(block(Math.floor(random() * 2 * STREETS), 0));

const queries: string[] = [];
for (let q = 0; q < ADDRESSES; q++) {
  const k = Math.floor(random() * 2 * STREETS);
  const b = Math.floor(random() * perStreet) - Math.floor(perStreet / 2);
  const ns = k < STREETS;
  const dir = ns ? (b < 0 ? 'S' : 'N') : b < 0 ? 'W' : 'E';
  const kind = q % 10;
  if (kind < 6) queries.push(block(k, b).text);
  else if (kind < 8) queries.push(`${Math.abs(b) * 100 + 1 + Math.floor(random() * 98)} ${dir} ${nameOf(k)}`);
  else if (kind < 9) queries.push(`${Math.abs(b) * 100} BLOCK OF ${dir} ${nameOf(k)}`);
  else queries.push(`${dir} ${nameOf(k)} / ${ns ? 'E' : 'N'} ${nameOf(STREETS + (k % STREETS))}`);
}

const c0 = process.cpuUsage();
const t0 = performance.now();
const locator = new Locator();
for (const r of reference) locator.addKnown(r.text, r.lat, r.lon);
const builtMs = performance.now() - t0;
const methods: Record<string, number> = {};
let placed = 0;
for (const q of queries) {
  const p = locator.place(q);
  if (!p) continue;
  placed++;
  methods[p.method] = (methods[p.method] ?? 0) + 1;
}
const ms = performance.now() - t0;
const cpu = process.cpuUsage(c0);

console.log(
  JSON.stringify({
    bench: 'place',
    reference: reference.length,
    addresses: queries.length,
    placed,
    methods,
    buildMs: Math.round(builtMs),
    ms: Math.round(ms),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    bound: { ms: BOUND_MS },
    ok: (cpu.user + cpu.system) / 1000 <= BOUND_MS && placed >= queries.length * 0.9,
    load: loadavg().map((l) => Math.round(l * 100) / 100),
  }),
);
