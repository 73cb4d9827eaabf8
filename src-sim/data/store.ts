/**
 * Columnar storage of every incident the simulator knows (typed arrays, one row per incident, rows in
 * cdid order), with the spatial grid and per-city time-zone tables. No per-incident objects.
 */
import { CRIME_TYPES, type CrimeType } from '../../src-shared/crimeTypes';
import { blockAddress } from './addresses';
import { CITIES, type CityDef } from './cities';
import { Grid } from './grid';
import type { ZoneTable } from './timeZones';

const MINUTE = 60_000;
/** Rows must fit the 24 bits query.ts packs them into. */
export const MAX_ROWS = 2 ** 24;

export type NewIncident = {
  cdid: number;
  lat: number;
  lon: number;
  occurredAt: number;
  reportedAt: number;
  type: number;
  city: number;
};

export class Store {
  size = 0;
  cdid = new Float64Array(0);
  lat = new Float64Array(0);
  lon = new Float64Array(0);
  occurredAt = new Float64Array(0);
  reportedAt = new Float64Array(0);
  /** Local calendar day of occurredAt in the incident's zone (days since 1970-01-01). */
  occurredDay = new Int32Array(0);
  type = new Uint8Array(0);
  city = new Uint8Array(0);
  removed = new Uint8Array(0);
  /** How many times the incident was amended after publication. */
  revision = new Uint16Array(0);
  readonly addressOverride = new Map<number, string>();
  /** The permalink site, when not the simulated service's (the demo's says it is synthetic). */
  site: string | undefined = undefined;
  readonly grid = new Grid();

  /**
   * `cities` are what `city` indexes (the test profile's CITIES by default); `addressOf` names a
   * block by its point (default: the synthetic grid address of data/addresses.ts).
   */
  constructor(
    readonly zones: readonly ZoneTable[],
    readonly cities: readonly CityDef[] = CITIES,
    private readonly addressOf?: (lat: number, lon: number, city: number) => string,
  ) {}

  reserve(capacity: number): void {
    if (capacity <= this.cdid.length) return;
    if (capacity > MAX_ROWS) throw new RangeError(`the simulator holds at most ${MAX_ROWS} incidents`);
    const grow = <T extends Float64Array | Int32Array | Uint8Array | Uint16Array>(
      a: T,
      make: (n: number) => T,
    ): T => {
      const b = make(capacity);
      b.set(a.subarray(0, this.size));
      return b;
    };
    this.cdid = grow(this.cdid, (n) => new Float64Array(n));
    this.lat = grow(this.lat, (n) => new Float64Array(n));
    this.lon = grow(this.lon, (n) => new Float64Array(n));
    this.occurredAt = grow(this.occurredAt, (n) => new Float64Array(n));
    this.reportedAt = grow(this.reportedAt, (n) => new Float64Array(n));
    this.occurredDay = grow(this.occurredDay, (n) => new Int32Array(n));
    this.type = grow(this.type, (n) => new Uint8Array(n));
    this.city = grow(this.city, (n) => new Uint8Array(n));
    this.removed = grow(this.removed, (n) => new Uint8Array(n));
    this.revision = grow(this.revision, (n) => new Uint16Array(n));
  }

  /** Appends an incident; cdids must ascend. Returns its row. */
  push(r: NewIncident): number {
    if (this.size === this.cdid.length) this.reserve(Math.min(MAX_ROWS, Math.max(1024, this.size * 2)));
    const i = this.size++;
    this.cdid[i] = r.cdid;
    this.lat[i] = r.lat;
    this.lon[i] = r.lon;
    // Whole minutes, as the API shows them (and as the packed sort keys of query.ts assume).
    this.occurredAt[i] = Math.floor(r.occurredAt / MINUTE) * MINUTE;
    this.reportedAt[i] = Math.max(this.occurredAt[i] ?? 0, Math.floor(r.reportedAt / MINUTE) * MINUTE);
    this.occurredDay[i] = this.zone(r.city).localDay(r.occurredAt);
    this.type[i] = r.type;
    this.city[i] = r.city;
    this.grid.add(i, r.lat, r.lon);
    return i;
  }

  /** Row of a cdid (binary search), or -1. */
  rowOf(cdid: number): number {
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.cdid[mid] ?? 0;
      if (v === cdid) return mid;
      if (v < cdid) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  zone(city: number): ZoneTable {
    const z = this.zones[city];
    if (!z) throw new Error(`no zone table for city ${city}`);
    return z;
  }

  typeName(row: number): CrimeType {
    return CRIME_TYPES[this.type[row] ?? 0] ?? 'Other';
  }

  address(row: number): string {
    const o = this.addressOverride.get(row);
    if (o !== undefined) return o;
    const c = this.city[row] ?? 0;
    if (this.addressOf) return this.addressOf(this.lat[row] ?? 0, this.lon[row] ?? 0, c);
    const city = this.cities[c];
    return blockAddress(this.lat[row] ?? 0, this.lon[row] ?? 0, city?.lat ?? 0, city?.lon ?? 0, c);
  }

  /** Whether the row is served at instant `now` to a window reaching back to `windowStart`. */
  isLive(row: number, now: number, windowStart: number): boolean {
    const rep = this.reportedAt[row] ?? 0;
    return this.removed[row] === 0 && rep <= now && rep >= windowStart;
  }
}
