/**
 * Change over time: the incidents that occurred since the last generation arrive, extra ones can be
 * added on request, and some recently reported ones are amended (type or address) or removed.
 */
import { CRIME_TYPES } from '../../src-shared/crimeTypes';
import { degreesBetween } from '../../src-shared/geo';
import { amendAddress, snapToBlock } from './addresses';
import { CITIES, type CityDef } from './cities';
import type { Dataset } from './generate';
import { drawLag, drawPlace, drawType, runProcess, takeCdid } from './occurrences';
import { cumulative, type Prng } from './prng';
import { DAY } from './timeZones';

const MINUTE = 60_000;
const HOUR = 3_600_000;

export type EvolveOptions = {
  /** Extra incidents beyond what the elapsed time brings: occurred in the last 6 hours, reported by now. */
  add?: number;
  /** How many recently reported incidents to amend (type or address). Default 5. */
  amend?: number;
  /** How many recently reported incidents to remove. Default 3. */
  remove?: number;
  /** Keep extra additions, amendments and removals inside this degree circle. */
  area?: { lat: number; lon: number; radiusDeg: number };
  /** How far back (by report time) amendments and removals reach. Default 14 days. */
  recentDays?: number;
};

/** cdids of what changed. Arrivals include incidents not yet reported (visible once the clock passes). */
export type EvolveResult = { added: number[]; amended: number[]; removed: number[] };

const CITY_WEIGHTS = cumulative(CITIES.map((c) => c.weight));

/** Where an extra incident goes: anywhere by city weight, or inside `area` (in its nearest city). */
function extraPlace(
  prng: Prng,
  area: EvolveOptions['area'],
  draw: typeof drawPlace = drawPlace,
  cities: readonly CityDef[] = CITIES,
): { lat: number; lon: number; city: number } {
  if (!area) {
    const city = prng.pickCumulative(
      cities === CITIES ? CITY_WEIGHTS : cumulative(cities.map((c) => c.weight)),
    );
    return { ...draw(city, prng), city };
  }
  let city = 0;
  let best = Infinity;
  cities.forEach((c, i) => {
    const dist = degreesBetween(c.lat, c.lon, area.lat, area.lon);
    if (dist < best) [best, city] = [dist, i];
  });
  if (draw !== drawPlace) {
    // A profile with places of its own (the demo's blocks): its draws, the first inside the area.
    for (let attempt = 0; attempt < 500; attempt++) {
      const p = draw(city, prng);
      if (degreesBetween(p.lat, p.lon, area.lat, area.lon) <= area.radiusDeg) return { ...p, city };
    }
  }
  for (let attempt = 0; attempt < 50; attempt++) {
    const r = area.radiusDeg * Math.sqrt(prng.next());
    const a = prng.next() * 2 * Math.PI;
    const p = snapToBlock(area.lat + r * Math.sin(a), area.lon + r * Math.cos(a));
    if (degreesBetween(p.lat, p.lon, area.lat, area.lon) <= area.radiusDeg) return { ...p, city };
  }
  return { lat: area.lat, lon: area.lon, city };
}

/** Rows amend and remove may pick: live, reported recently, not fixtures, older than `endRow`. */
function candidates(d: Dataset, now: number, opts: EvolveOptions, endRow: number): number[] {
  const s = d.store;
  const from = now - (opts.recentDays ?? 14) * DAY;
  const out: number[] = [];
  for (let r = 0; r < endRow; r++) {
    if (d.fixtureRows.has(r) || !s.isLive(r, now, from)) continue;
    const a = opts.area;
    if (a && degreesBetween(s.lat[r] ?? 0, s.lon[r] ?? 0, a.lat, a.lon) > a.radiusDeg) continue;
    out.push(r);
  }
  return out;
}

/** Takes `n` distinct random entries out of `pool` (partial Fisher–Yates). */
function take(pool: number[], n: number, prng: Prng): number[] {
  const out: number[] = [];
  for (let i = 0; i < n && pool.length > 0; i++) {
    const j = prng.int(0, pool.length - 1);
    out.push(pool[j] as number);
    pool[j] = pool[pool.length - 1] as number;
    pool.pop();
  }
  return out;
}

export function evolve(d: Dataset, now: number, opts: EvolveOptions = {}): EvolveResult {
  const s = d.store;
  const prng = d.evolvePrng;
  const firstNew = s.size;
  const addedRows = now > d.process.until ? runProcess(s, d.process, now, prng) : [];
  for (let k = 0; k < (opts.add ?? 0); k++) {
    const place = extraPlace(prng, opts.area, d.process.place, s.cities);
    const occurredAt = Math.floor((now - prng.next() * 6 * HOUR) / MINUTE) * MINUTE;
    const lag = Math.min(drawLag(prng), now - occurredAt);
    const type = drawType(new Date(s.zone(place.city).local(occurredAt)).getUTCHours(), prng);
    const cdid = takeCdid(d.process, prng);
    addedRows.push(s.push({ cdid, ...place, occurredAt, reportedAt: occurredAt + lag, type }));
  }
  const pool = candidates(d, now, opts, firstNew);
  const amended = take(pool, opts.amend ?? 5, prng);
  for (const r of amended) {
    if (prng.next() < 0.5) {
      const shift = prng.int(1, CRIME_TYPES.length - 1);
      s.type[r] = ((s.type[r] ?? 0) + shift) % CRIME_TYPES.length;
    } else {
      s.addressOverride.set(r, amendAddress(s.address(r)));
    }
    s.revision[r] = (s.revision[r] ?? 0) + 1;
  }
  const removed = take(pool, opts.remove ?? 3, prng);
  for (const r of removed) s.removed[r] = 1;
  const cdids = (rows: number[]): number[] => rows.map((r) => s.cdid[r] ?? 0);
  return { added: cdids(addedRows), amended: cdids(amended), removed: cdids(removed) };
}
