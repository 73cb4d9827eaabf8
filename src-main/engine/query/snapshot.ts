/**
 * The columnar snapshot: every incident of the store as typed-array columns in the engine worker,
 * so a filter is a tight loop over ~50 bytes a row (1M rows in a few ms) instead of a SQL scan.
 *
 * Row i is (cdid[i], lat[i], …); strings are dictionary-coded (types, zones, addresses). Rows
 * [0, sortedUpTo) are in ascending cdid order (the load order), later rows were appended by
 * incremental updates in any order and are found through `tail`. A row is never moved or deleted:
 * an incident deleted from the store becomes `GONE`. `version` changes with every change.
 */
import { Dictionary } from './dictionary';

export const LIVE = 0;
export const REMOVED = 1;
export const GONE = 2;

/**
 * One incident as the loader reads it (see snapshotLoader.ts): type and zone arrive as a known
 * dictionary id + 1, or as the string when the loader did not know the value yet; `packed` is
 * (day number · 1440 + local minute) · 2 + removed.
 */
export type RawRow = [
  cdid: number,
  lat: number,
  lon: number,
  utc: number,
  packed: number | null,
  type: number | string,
  zone: number | string,
  address: string,
];

/** Versions are unique across snapshots, so a cache keyed by version never confuses two of them. */
let lastVersion = 0;

const weekdayOfDay = (day: number): number => (((day + 4) % 7) + 7) % 7;

export const COLUMN_NAMES = [
  'cdid',
  'lat',
  'lon',
  'utc',
  'day',
  'minute',
  'hour',
  'weekday',
  'type',
  'zone',
  'addr',
  'state',
] as const;
export type ColumnName = (typeof COLUMN_NAMES)[number];
export type TypedColumn = Float64Array | Int32Array | Uint16Array | Uint8Array | Uint32Array;

export class Snapshot {
  size = 0;
  version = ++lastVersion;
  cdid: Float64Array;
  lat: Float64Array;
  lon: Float64Array;
  /** occurred_utc, epoch ms. */
  utc: Float64Array;
  /** local_day as a day number (days since 1970-01-01). */
  day: Int32Array;
  /** Local minute of the day, from occurred_local (hour and weekday follow from it and the day). */
  minute: Uint16Array;
  hour: Uint8Array;
  weekday: Uint8Array;
  type: Uint16Array;
  zone: Uint16Array;
  addr: Uint32Array;
  /** LIVE, REMOVED (soft-deleted) or GONE (no longer in the store). */
  state: Uint8Array;
  readonly types: Dictionary;
  readonly zones: Dictionary;
  readonly addresses: Dictionary;
  private sortedUpTo = 0;
  private readonly tail = new Map<number, number>();

  constructor(
    capacity = 1024,
    dictionaries?: { types: Dictionary; zones: Dictionary; addresses: Dictionary },
  ) {
    this.types = dictionaries?.types ?? new Dictionary();
    this.zones = dictionaries?.zones ?? new Dictionary();
    this.addresses = dictionaries?.addresses ?? new Dictionary();
    const c = Math.max(16, capacity);
    this.cdid = new Float64Array(c);
    this.lat = new Float64Array(c);
    this.lon = new Float64Array(c);
    this.utc = new Float64Array(c);
    this.day = new Int32Array(c);
    this.minute = new Uint16Array(c);
    this.hour = new Uint8Array(c);
    this.weekday = new Uint8Array(c);
    this.type = new Uint16Array(c);
    this.zone = new Uint16Array(c);
    this.addr = new Uint32Array(c);
    this.state = new Uint8Array(c);
  }

  /** The row of `cdid`, or -1. `from` is a hint for ascending lookups (a row at or before it). */
  rowOf(cdid: number, from = 0): number {
    let lo = from;
    let hi = this.sortedUpTo - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.cdid[mid] as number;
      if (v < cdid) lo = mid + 1;
      else if (v > cdid) hi = mid - 1;
      else return mid;
    }
    return this.tail.get(cdid) ?? -1;
  }

  /** Inserts or overwrites the incident of `row`; returns its row index. */
  upsert(row: RawRow): number {
    const cdid = row[0];
    // Appending in cdid order (a full read) skips the lookup.
    const last = this.sortedUpTo - 1;
    const appends = this.size === this.sortedUpTo && (last < 0 || cdid > (this.cdid[last] as number));
    let i = appends ? -1 : this.rowOf(cdid);
    if (i < 0) {
      i = this.size;
      if (i === this.cdid.length) this.grow();
      this.size++;
      if (this.tail.size === 0 && (i === 0 || cdid > (this.cdid[i - 1] as number))) this.sortedUpTo = i + 1;
      else this.tail.set(cdid, i);
    }
    this.cdid[i] = cdid;
    this.lat[i] = row[1];
    this.lon[i] = row[2];
    this.utc[i] = row[3];
    const packed = row[4] ?? 0;
    const dayMinute = Math.floor(packed / 2);
    const day = Math.floor(dayMinute / 1440);
    const minute = dayMinute - day * 1440;
    this.day[i] = day;
    this.minute[i] = minute;
    this.hour[i] = Math.floor(minute / 60);
    this.weekday[i] = weekdayOfDay(day);
    this.state[i] = packed - dayMinute * 2 === 1 ? REMOVED : LIVE;
    this.type[i] = typeof row[5] === 'number' ? row[5] - 1 : this.types.id(row[5]);
    this.zone[i] = typeof row[6] === 'number' ? row[6] - 1 : this.zones.id(row[6]);
    this.addr[i] = this.addresses.id(row[7]);
    return i;
  }

  /** Marks the snapshot changed (after upserts), for every cache keyed by version. */
  touch(): void {
    this.version = ++lastVersion;
  }

  /** Marks an incident that is no longer in the store. */
  markGone(cdid: number): void {
    const i = this.rowOf(cdid);
    if (i >= 0) this.state[i] = GONE;
  }

  /** The columns by name, for the snapshot cache (views of the used rows). */
  columns(): Record<ColumnName, TypedColumn> {
    const n = this.size;
    const out = {} as Record<ColumnName, TypedColumn>;
    for (const name of COLUMN_NAMES) out[name] = this[name].subarray(0, n);
    return out;
  }

  /** Takes rows [0, size) from saved columns (same names and types); rows ≥ sortedRows are out of order. */
  restore(size: number, sortedRows: number, fill: (name: ColumnName, target: TypedColumn) => void): void {
    while (this.cdid.length < size) this.grow();
    for (const name of COLUMN_NAMES) fill(name, this[name].subarray(0, size));
    this.size = size;
    this.sortedUpTo = sortedRows;
    this.tail.clear();
    for (let i = sortedRows; i < size; i++) this.tail.set(this.cdid[i] as number, i);
    this.touch();
  }

  /** Rows [0, sortedRows) are in ascending cdid order. */
  get sortedRows(): number {
    return this.sortedUpTo;
  }

  /** Rows appended out of cdid order since the load (a reload puts them in order again). */
  get unsortedRows(): number {
    return this.tail.size;
  }

  /** Bytes held by the columns (capacity, not size). */
  get columnBytes(): number {
    return COLUMN_NAMES.reduce((sum, name) => sum + this[name].byteLength, 0);
  }

  private grow(): void {
    const c = Math.ceil(this.cdid.length * 1.5);
    const grown = <T extends Float64Array | Int32Array | Uint16Array | Uint8Array | Uint32Array>(
      a: T,
      Ctor: new (n: number) => T,
    ): T => {
      const b = new Ctor(c);
      b.set(a);
      return b;
    };
    this.cdid = grown(this.cdid, Float64Array);
    this.lat = grown(this.lat, Float64Array);
    this.lon = grown(this.lon, Float64Array);
    this.utc = grown(this.utc, Float64Array);
    this.day = grown(this.day, Int32Array);
    this.minute = grown(this.minute, Uint16Array);
    this.hour = grown(this.hour, Uint8Array);
    this.weekday = grown(this.weekday, Uint8Array);
    this.type = grown(this.type, Uint16Array);
    this.zone = grown(this.zone, Uint16Array);
    this.addr = grown(this.addr, Uint32Array);
    this.state = grown(this.state, Uint8Array);
  }
}
