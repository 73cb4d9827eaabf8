/**
 * The analyses (src-main/engine/analysis) at a million incidents over one city, each timed as the
 * pure function the helper thread runs (projection into UTM included). One JSON line per figure:
 *   KDE, 250 m cells, r = 1 km, 1M incidents              bound 1 s
 *   Gi* on ~100k cells, band 2 cells, 1M incidents        bound 2 s
 *   Knox, 99 permutations, 20k incidents, bands to 800 ft bound 10 s
 *   CompStat, 1M incidents, 4 areas                       bound 200 ms
 * and, for reference, KDE through the helper thread (start, copy, run, answer).
 * `npx tsx bench/analysis.ts [--count N]`
 */
import { dayNumber } from '../src-shared/filters';
import { compStat, compStatRange } from '../src-main/engine/analysis/compstat';
import { hotSpots } from '../src-main/engine/analysis/getisOrd';
import { kernelDensity } from '../src-main/engine/analysis/kde';
import { nearRepeat } from '../src-main/engine/analysis/knox';
import { seededRandom } from '../src-main/engine/analysis/random';
import { runAnalysis } from '../src-main/engine/analysis/runner';
import { COMPLETE } from '../src-main/engine/query/ledger';
import { round, time } from './lib/stats';

const arg = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const COUNT = arg('--count', 1_000_000);
const out = (figure: Record<string, unknown>): void => console.log(JSON.stringify(figure));

// A city like Chicago: 30 km east–west, 40 km north–south; 60 % of incidents spread evenly, 40 %
// in 60 hot spots of 200–800 m; three years of days; ten types.
const CITY = { lat: 41.85, lon: -87.68, dLat: 0.18, dLon: 0.18 };
const FIRST_DAY = dayNumber('2022-01-01');
const TODAY = '2024-12-18';
const DAYS = dayNumber(TODAY) - FIRST_DAY + 1;
const TYPES = [
  'Theft',
  'Assault',
  'Burglary',
  'Vandalism',
  'Arrest',
  'Robbery',
  'Other',
  'Shooting',
  'Arson',
  'Fraud',
];

function city(n: number) {
  const random = seededRandom(2024);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const spots = Array.from({ length: 60 }, () => ({
    lat: CITY.lat + (random() - 0.5) * 2 * CITY.dLat * 0.9,
    lon: CITY.lon + (random() - 0.5) * 2 * CITY.dLon * 0.9,
    sd: (200 + 600 * random()) / 111_000,
  }));
  const lat = new Float64Array(n);
  const lon = new Float64Array(n);
  const day = new Int32Array(n);
  const type = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    if (random() < 0.6) {
      lat[i] = CITY.lat + (random() - 0.5) * 2 * CITY.dLat;
      lon[i] = CITY.lon + (random() - 0.5) * 2 * CITY.dLon;
    } else {
      const s = spots[Math.floor(random() * spots.length)]!;
      lat[i] = s.lat + normal() * s.sd;
      lon[i] = s.lon + (normal() * s.sd) / Math.cos((s.lat * Math.PI) / 180);
    }
    day[i] = FIRST_DAY + Math.floor(random() * DAYS);
    type[i] = Math.floor(random() ** 2 * TYPES.length);
  }
  return { lat, lon, day, type };
}

const generated = await time(() => city(COUNT));
const data = generated.value;
out({ bench: 'analysis-data', incidents: COUNT, generateMs: round(generated.ms) });

const kde = await time(() => kernelDensity(data.lat, data.lon, { radiusM: 1000, cellSizeM: 250 }));
out({
  bench: 'kde',
  incidents: COUNT,
  cells: kde.value.grid.size,
  ms: round(kde.ms),
  cpuMs: round(kde.cpuMs),
  boundMs: 1000,
  ok: kde.ms <= 1000,
});

// About 100k cells over the extent: 30 km × 40 km / 100,000 ≈ (110 m)².
const gi = await time(() => hotSpots(data.lat, data.lon, { cellSizeM: 110 }));
out({
  bench: 'gi-star',
  incidents: COUNT,
  cells: gi.value.parameters.cells,
  bandM: gi.value.parameters.distance_band_m,
  hotCells: gi.value.bin.reduce((s, b) => s + (b === 3 ? 1 : 0), 0),
  ms: round(gi.ms),
  cpuMs: round(gi.cpuMs),
  boundMs: 2000,
  ok: gi.ms <= 2000,
});

// 20k incidents of the archive (every 50th), bands to 800 ft and three weeks.
const step = Math.max(1, Math.floor(COUNT / 20_000));
const pick = (a: Float64Array | Int32Array) => a.filter((_, i) => i % step === 0).subarray(0, 20_000);
const sub = {
  lat: pick(data.lat) as Float64Array,
  lon: pick(data.lon) as Float64Array,
  day: pick(data.day) as Int32Array,
};
const knox = await time(() =>
  nearRepeat(sub.lat, sub.lon, sub.day, {
    space: [0, 400, 800],
    spaceUnit: 'ft',
    time: [0, 7, 14, 21],
    iterations: 99,
    seed: 1,
  }),
);
out({
  bench: 'knox',
  incidents: sub.lat.length,
  iterations: 99,
  closePairs: knox.value.parameters.close_pairs,
  ms: round(knox.ms),
  cpuMs: round(knox.cpuMs),
  boundMs: 10_000,
  ok: knox.ms <= 10_000,
});

// Four areas (the city's quadrants), each with its coverage.
const quadrant = (i: number) => (data.lat[i]! > CITY.lat ? 2 : 0) + (data.lon[i]! > CITY.lon ? 1 : 0);
const rows: number[][] = [[], [], [], []];
for (let i = 0; i < COUNT; i++) rows[quadrant(i)]!.push(i);
const areaRows = rows.map((r) => Uint32Array.from(r));
const range = compStatRange(dayNumber(TODAY));
const coverage = {
  basis: 'ledger' as const,
  from: range.from,
  statuses: new Uint8Array(range.to - range.from + 1).fill(COMPLETE),
};
const areas = ['South-west', 'South-east', 'North-west', 'North-east'].map((name, id) => ({
  id,
  name,
  zone: 'America/Chicago',
  rows: areaRows[id]!,
  coverage,
}));
const runs = [];
for (let k = 0; k < 5; k++)
  runs.push(
    await time(() =>
      compStat({
        day: data.day,
        type: data.type,
        typeNames: TYPES,
        areas,
        now: Date.parse(`${TODAY}T18:00:00Z`),
      }),
    ),
  );
const median = runs.map((r) => r.ms).sort((a, b) => a - b)[2]!;
out({
  bench: 'compstat',
  incidents: COUNT,
  areas: areas.length,
  medianMs: round(median),
  firstMs: round(runs[0]!.ms),
  boundMs: 200,
  ok: median <= 200,
});

const threaded = await time(() =>
  runAnalysis({
    kind: 'kde',
    columns: { lat: data.lat, lon: data.lon },
    options: { radiusM: 1000, cellSizeM: 250 },
  }),
);
out({
  bench: 'kde-helper-thread',
  incidents: COUNT,
  ms: round(threaded.ms),
  note: 'for reference: thread start (from source via tsx), copying the columns, the run and the answer',
});
