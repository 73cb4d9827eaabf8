/**
 * Inputs and outputs of the contract's incident queries (count, map, table, incident panel,
 * history, coverage) over the shared filter state of ./filters. Pure zod; contract.ts refers to
 * these by name.
 */
import { z } from 'zod';
import { Filters, GeoPoint, LocalDay } from './filters';

const Count = z.number().int().nonnegative();
const ByType = z.record(z.string(), Count);
const ResolvedRange = z.object({ from: z.string().nullable(), to: z.string().nullable() });

export const FiltersInput = z.object({ filters: Filters.default({}) }).strict();

export const CountResult = z.object({
  total: Count,
  /** Every type the archive holds (zero when filtered out), plus the standard types. */
  byType: ByType,
  /** The date range applied, the preset resolved. */
  range: ResolvedRange,
  computedMs: z.number().optional(),
  /** Answered from a saved snapshot that is behind the file: the views say "updating". */
  updating: z.boolean().optional(),
});
export type CountResult = z.infer<typeof CountResult>;

/** Packed columns for the map: row i is (cdid[i], lat[i], lon[i], types[typeIndex[i]]). */
export const MapPoints = z.object({
  count: Count,
  cdid: z.instanceof(Float64Array),
  lat: z.instanceof(Float32Array),
  lon: z.instanceof(Float32Array),
  typeIndex: z.instanceof(Uint8Array),
  types: z.array(z.string()),
  /** Answered from a saved snapshot that is behind the file: the views say "updating". */
  updating: z.boolean().optional(),
});
export type MapPoints = z.infer<typeof MapPoints>;

/** The map's first paint: the filtered incidents in a coarse grid for a zoom (engine/query/mapSketch.ts). */
export const MapSketchInput = z
  .object({ filters: Filters.default({}), zoom: z.number().int().min(0).max(22) })
  .strict();
/**
 * Cell i: its incidents' mean position (lat[i], lon[i]), count[i], and per type
 * typeCounts[i·T … i·T+T−1] (T = types.length). The counts add up to `total`, every incident of
 * the filters; `bounds` [west, south, east, north] of them (null when none).
 */
export const MapSketch = z.object({
  total: Count,
  types: z.array(z.string()),
  lat: z.array(z.number()),
  lon: z.array(z.number()),
  count: z.array(Count),
  typeCounts: z.array(Count),
  bounds: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
  /** From a saved snapshot that is behind the file (or read before it was loaded: false). */
  updating: z.boolean(),
});
export type MapSketch = z.infer<typeof MapSketch>;

export const SortKey = z.enum(['date', 'type', 'distance', 'address']);
export type SortKey = z.infer<typeof SortKey>;

export const ListInput = z
  .object({
    filters: Filters.default({}),
    sort: z
      .object({
        by: SortKey,
        dir: z.enum(['asc', 'desc']),
        /** The point distances are measured from; default: the filter area's centre. */
        center: GeoPoint.optional(),
      })
      .strict()
      .default({ by: 'date', dir: 'desc' }),
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(500).default(100),
  })
  .strict();
export type ListInput = z.input<typeof ListInput>;

export const IncidentRow = z.object({
  cdid: z.number(),
  type: z.string(),
  address: z.string(),
  lat: z.number(),
  lon: z.number(),
  /** Local wall time, YYYY-MM-DDTHH:MM, in `timezone`. */
  occurredLocal: z.string(),
  timezone: z.string(),
  occurredUtc: z.number(),
  removed: z.boolean(),
  /** Miles from the distance centre; null when there is none. */
  distanceMi: z.number().nullable(),
  /** Where the row came from (the table's Source column): the API or an import, its file's name. */
  source: z.enum(['api', 'import']).optional(),
  importFile: z.string().optional(),
  /** An imported row's kept columns (a beat, a district…), for the table's column chooser. */
  attributes: z.record(z.string(), z.string()).optional(),
  /** The category its source file gave it (an import's own), when it has one. */
  subtype: z.string().nullable().optional(),
});
export type IncidentRow = z.infer<typeof IncidentRow>;

export const ListResult = z.object({
  total: Count,
  offset: Count,
  rows: z.array(IncidentRow),
  /** The centre distances are measured from, if any. */
  center: GeoPoint.nullable(),
});
export type ListResult = z.infer<typeof ListResult>;

/** Where an imported incident came from (engine/provenance/importProvenance.ts). */
export const ImportedFrom = z.object({
  fileName: z.string(),
  /** The column mapping the file was read through, and its fingerprint. */
  mappingName: z.string().nullable(),
  mappingHash: z.string().nullable(),
  importedAt: z.number(),
  /** Its id in the other system. */
  externalId: z.string().nullable(),
  /** The file's other columns kept with it. */
  attributes: z.record(z.string(), z.string()),
});
export type ImportedFrom = z.infer<typeof ImportedFrom>;

export const IncidentDetail = z.object({
  cdid: z.number(),
  type: z.string(),
  address: z.string(),
  lat: z.number(),
  lon: z.number(),
  link: z.string(),
  dateRaw: z.string(),
  occurredLocal: z.string(),
  timezone: z.string(),
  occurredUtc: z.string(),
  timeFlag: z.enum(['ambiguous', 'nonexistent']).nullable(),
  description: z.string().nullable(),
  descriptionFetchedAt: z.number().nullable(),
  firstSeen: z.number(),
  lastSeen: z.number(),
  removedAt: z.number().nullable(),
  removedReason: z.string().nullable(),
  source: z.string(),
  /** The category its source file gave it (an import's own: SF's "Larceny Theft" under Theft); null for the API's. */
  subtype: z.string().nullable().optional(),
  /** An imported incident's file, mapping and kept columns (absent for API rows). */
  importedFrom: ImportedFrom.optional(),
});
export type IncidentDetail = z.infer<typeof IncidentDetail>;

export const Interval = z.enum(['day', 'week', 'month']);
export type Interval = z.infer<typeof Interval>;

export const SeriesInput = z
  .object({ filters: Filters.default({}), interval: Interval.default('day') })
  .strict();
export const SeriesResult = z.object({
  interval: Interval,
  /** Column order of every bucket's `counts`. */
  types: z.array(z.string()),
  /** Weeks start on Monday. `partial`: the bucket reaches outside the range. Empty buckets included. */
  buckets: z.array(
    z.object({
      start: z.string(),
      end: z.string(),
      total: Count,
      counts: z.array(Count),
      partial: z.boolean(),
    }),
  ),
  range: ResolvedRange,
});
export type SeriesResult = z.infer<typeof SeriesResult>;

export const CompareInput = z
  .object({ filters: Filters.default({}), from: LocalDay, to: LocalDay })
  .strict()
  .refine((v) => v.from <= v.to, { message: 'The start date is after the end date.', path: ['to'] });

export const CoverageBasis = z.enum(['ledger', 'archive']);
export const PeriodCoverage = z.object({
  /** full: every day complete; provisional: covered, recent days still being reported. */
  status: z.enum(['full', 'provisional', 'partial', 'none']),
  days: Count,
  completeDays: Count,
  provisionalDays: Count,
  missingDays: Count,
  basis: CoverageBasis,
});
export const Period = z.object({
  from: z.string(),
  to: z.string(),
  days: Count,
  total: Count,
  byType: ByType,
  coverage: PeriodCoverage,
});
export const Change = z.object({
  absolute: z.number(),
  /** Null when the base period has no incidents. */
  percent: z.number().nullable(),
  /** False when either period is not fully held by the archive. */
  comparable: z.boolean(),
  /** Plain words when the figures need a caveat. */
  note: z.string().nullable(),
});
export const CompareResult = z.object({
  current: Period,
  previous: Period,
  yearAgo: Period,
  vsPrevious: Change,
  vsYearAgo: Change,
});
export type CompareResult = z.infer<typeof CompareResult>;

export const GridResult = z.object({
  /** counts[weekday][hour], weekday 0 = Sunday, local time. */
  counts: z.array(z.array(Count)),
  total: Count,
  max: Count,
});
export type GridResult = z.infer<typeof GridResult>;

export const TopLocationsInput = z
  .object({ filters: Filters.default({}), limit: z.number().int().min(1).max(200).default(20) })
  .strict();
export const TopLocationsResult = z.object({
  locations: z.array(
    z.object({
      address: z.string(),
      count: Count,
      /** Mean position of the address's incidents. */
      lat: z.number(),
      lon: z.number(),
      topType: z.string(),
      lastUtc: z.number(),
      /** The IANA zone of the latest incident, to show lastUtc in its local time. */
      lastZone: z.string(),
    }),
  ),
});
export type TopLocationsResult = z.infer<typeof TopLocationsResult>;

export const CoverageInput = z
  .object({
    areaId: z.number().int().positive().optional(),
    from: LocalDay.optional(),
    to: LocalDay.optional(),
  })
  .strict();
/** saturated: complete, but a single day filled a response somewhere and was finished by splitting. */
export const CoverageStatus = z.enum(['complete', 'saturated', 'provisional', 'missing']);
export type CoverageStatus = z.infer<typeof CoverageStatus>;
export const CoverageResult = z.object({
  /** ledger: the sync's coverage ledger; archive: no ledger, so the span of the incidents held. */
  basis: CoverageBasis,
  from: z.string().nullable(),
  to: z.string().nullable(),
  runs: z.array(z.object({ from: z.string(), to: z.string(), status: CoverageStatus })),
  totals: z.object({ complete: Count, saturated: Count, provisional: Count, missing: Count }),
});
export type CoverageResult = z.infer<typeof CoverageResult>;

export const ArchiveSummary = z.object({
  total: Count,
  removed: Count,
  firstDay: z.string().nullable(),
  lastDay: z.string().nullable(),
  types: z.array(z.object({ type: z.string(), count: Count })),
});
export type ArchiveSummary = z.infer<typeof ArchiveSummary>;
