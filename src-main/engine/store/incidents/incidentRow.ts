/**
 * The `incidents` table's row as stored (migrations/001-initial.ts) and its column lists. Every
 * reader and writer of the table — sync, import, export, query, the benches — takes its names from
 * here. Pure names and types: the export thread imports it.
 */
import type { TimeFlag } from '../../time/wallToInstant';

/** One stored incident, every column. */
export type IncidentRow = {
  cdid: number;
  type: string;
  address: string;
  lat: number;
  lon: number;
  link: string;
  /** Exactly as the API sent it: MM/DD/YY HH:MM AM/PM. */
  date_raw: string;
  /** Local wall time, YYYY-MM-DDTHH:MM. */
  occurred_local: string;
  /** IANA zone at lat/lon. */
  timezone: string;
  /** The instant, epoch ms. */
  occurred_utc: number;
  time_flag: TimeFlag | null;
  local_day: string;
  local_hour: number;
  /** 0 = Sunday .. 6 = Saturday. */
  local_weekday: number;
  description: string | null;
  description_fetched_at: number | null;
  first_seen: number;
  last_seen: number;
  removed_at: number | null;
  removed_reason: string | null;
  source: 'api' | 'import';
  /** The category the source file gave it (an import's own; migration 017), null for the API's. */
  subtype: string | null;
};

export type IncidentColumn = keyof IncidentRow;

/** What an incident says about itself, with its derived time: the columns every writer sets. */
export const RECORD_COLUMNS = [
  'cdid',
  'type',
  'address',
  'lat',
  'lon',
  'link',
  'date_raw',
  'occurred_local',
  'timezone',
  'occurred_utc',
  'time_flag',
  'local_day',
  'local_hour',
  'local_weekday',
] as const satisfies readonly IncidentColumn[];

export type IncidentRecord = Pick<IncidentRow, (typeof RECORD_COLUMNS)[number]>;

/** The columns an insert writes, in this order (the record, then what the archive keeps about it). */
export const INSERT_COLUMNS = [
  ...RECORD_COLUMNS,
  'description',
  'first_seen',
  'last_seen',
  'removed_at',
  'removed_reason',
  'source',
] as const satisfies readonly IncidentColumn[];

/** Every column of a row (an office replica copies rows whole). */
export const ALL_COLUMNS = [
  ...INSERT_COLUMNS,
  'description_fetched_at',
  'subtype',
] as const satisfies readonly IncidentColumn[];

/** A row read with `.raw()` for the columns `C`, in their order. */
export type IncidentTuple<C extends readonly IncidentColumn[]> = {
  -readonly [K in keyof C]: IncidentRow[C[K]];
};

/** `a, b, c` for a SELECT or INSERT of these columns (each prefixed `alias.` when given). */
export const columnList = (columns: readonly IncidentColumn[], alias?: string): string =>
  columns.map((c) => (alias ? `${alias}.${c}` : c)).join(', ');
