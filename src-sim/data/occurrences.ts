/**
 * The incident process: for every UTC hour and city, a Poisson number of incidents whose rate follows
 * local hour-of-day and weekday rhythms; places from hot spots and background scatter, snapped to
 * blocks; types that shift towards violence at night; a report lag of minutes to (rarely) 36 hours.
 */
import { CRIME_TYPES } from '../../src-shared/crimeTypes';
import { snapToBlock } from './addresses';
import { CITIES, type CityDef } from './cities';
import { cumulative, type Prng } from './prng';
import type { Store } from './store';

const HOUR = 3_600_000;
const MINUTE = 60_000;
export const MAX_LAG_MS = 36 * HOUR;

/** Relative rate by local hour (0–23) and weekday (0 = Sunday). */
const HOURLY = [
  0.6, 0.45, 0.35, 0.25, 0.2, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 1.0, 1.1, 1.0, 1.0, 1.05, 1.15, 1.3, 1.4, 1.45,
  1.4, 1.3, 1.1, 0.85,
];
const WEEKDAY = [1.05, 0.9, 0.9, 0.92, 0.97, 1.15, 1.2];
const MEAN_RHYTHM = (HOURLY.reduce((a, b) => a + b, 0) / 24) * (WEEKDAY.reduce((a, b) => a + b, 0) / 7);

// Shooting, Assault, Robbery, Burglary, Theft, Arson, Vandalism, Arrest, Other
const DAY_TYPES = cumulative([2, 13, 6, 10, 32, 1, 12, 12, 12]);
const NIGHT_TYPES = cumulative([6, 22, 9, 12, 20, 2, 12, 9, 8]);

export const typeIndex = (name: string): number => (CRIME_TYPES as readonly string[]).indexOf(name);

/** The state the process needs to continue where it stopped (initial generation, then evolve). */
export type Process = {
  /** Expected incidents per hour per city at mean rhythm. */
  perHour: number[];
  /** Occurrences have been generated up to (excluding) this instant. */
  until: number;
  nextCdid: number;
  /** Where incidents happen; default drawPlace (the demo profile keeps them on land, on its streets). */
  place?: (cityIndex: number, prng: Prng) => { lat: number; lon: number };
};

export function makeProcess(
  totalTarget: number,
  spanMs: number,
  start: number,
  cities: readonly CityDef[] = CITIES,
): Process {
  const hours = Math.max(1, spanMs / HOUR);
  return {
    perHour: cities.map((c) => (totalTarget * c.weight) / hours / MEAN_RHYTHM),
    until: start,
    nextCdid: 10_000_001,
  };
}

/** A fresh cdid: ascending, with occasional gaps (cdids are not dense). */
export function takeCdid(p: Process, prng: Prng): number {
  const cdid = p.nextCdid;
  p.nextCdid += prng.next() < 0.1 ? prng.int(2, 6) : 1;
  return cdid;
}

/** A report lag: most within a few hours, some up to ~34 hours, never over 36 hours. */
export function drawLag(prng: Prng): number {
  const r = prng.next();
  let lag: number;
  if (r < 0.65) lag = -Math.log(1 - prng.next()) * 60 * MINUTE;
  else if (r < 0.93) lag = (2 + prng.next() * 8) * HOUR;
  else lag = (10 + prng.next() * 24) * HOUR;
  return Math.min(MAX_LAG_MS, Math.max(2 * MINUTE, Math.round(lag / MINUTE) * MINUTE));
}

const HOT_SPOT_WEIGHTS = CITIES.map((c) => cumulative(c.hotSpots.map((s) => s.weight)));

/** A block point in a city: a hot spot or the background scatter. */
export function drawPlace(cityIndex: number, prng: Prng): { lat: number; lon: number } {
  const city = CITIES[cityIndex] as CityDef;
  let lat = city.lat;
  let lon = city.lon;
  let spread = city.spreadDeg;
  const weights = HOT_SPOT_WEIGHTS[cityIndex];
  if (weights && weights.length > 0 && prng.next() < city.hotShare) {
    const spot = city.hotSpots[prng.pickCumulative(weights)];
    if (spot) ({ lat, lon, spreadDeg: spread } = spot);
  }
  const lonScale = 1 / Math.cos((lat * Math.PI) / 180);
  return snapToBlock(lat + prng.gaussian() * spread, lon + prng.gaussian() * spread * lonScale);
}

export function drawType(localHour: number, prng: Prng): number {
  return prng.pickCumulative(localHour >= 22 || localHour < 5 ? NIGHT_TYPES : DAY_TYPES);
}

/** Generates the occurrences of [p.until, to) into the store; returns the rows added. */
export function runProcess(store: Store, p: Process, to: number, prng: Prng): number[] {
  const place = p.place ?? drawPlace;
  const rows: number[] = [];
  const firstHour = Math.floor(p.until / HOUR);
  for (let h = firstHour; h * HOUR < to; h++) {
    const from = Math.max(p.until, h * HOUR);
    const end = Math.min(to, (h + 1) * HOUR);
    const share = (end - from) / HOUR;
    for (let c = 0; c < p.perHour.length; c++) {
      const local = new Date(store.zone(c).local(h * HOUR));
      const rate = (HOURLY[local.getUTCHours()] ?? 1) * (WEEKDAY[local.getUTCDay()] ?? 1);
      const n = prng.poisson((p.perHour[c] ?? 0) * rate * share);
      for (let k = 0; k < n; k++) {
        const occurredAt = Math.floor((from + prng.next() * (end - from)) / MINUTE) * MINUTE;
        const at = place(c, prng);
        const type = drawType(local.getUTCHours(), prng);
        rows.push(
          store.push({
            cdid: takeCdid(p, prng),
            lat: at.lat,
            lon: at.lon,
            occurredAt,
            reportedAt: occurredAt + drawLag(prng),
            type,
            city: c,
          }),
        );
      }
    }
  }
  p.until = Math.max(p.until, to);
  return rows;
}
