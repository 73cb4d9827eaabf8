/**
 * The analysis calls' shapes (issue 15): every call takes the one filter shape (filters.ts) and
 * its own parameters, an optional `jobId` the caller chooses (so it can cancel and follow the
 * `analysisProgress` events before the answer arrives), and answers when the analysis is done.
 * Every answer carries `provenance`: the analysis's own parameters live in its result; the
 * filters and the archive's coverage (the export manifest's Provenance) sit beside them.
 * Outputs are compact: hot spots as the GeoJSON grid the CLI writes, kernel density as a lon/lat
 * raster (base64 Float32, first row northernmost) or the GeoJSON/GeoTIFF export, tables as rows.
 */
import { z } from 'zod';
import { Provenance } from './exports';
import { dayNumber, Filters } from './filters';
import { CompStatArea } from './reportAnalyses';

export const AnalysisJobId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'A job id is 1–64 letters, digits, - or _.');

const Base = { filters: Filters.default({}), jobId: AnalysisJobId.optional() };
const Metres = z.number().positive().max(100_000);

export const HotSpotsInput = z
  .object({
    ...Base,
    grid: z.enum(['square', 'hexagon']).optional(),
    cellSizeM: Metres.optional(),
    distanceBandM: Metres.optional(),
  })
  .strict();

export const KdeInput = z
  .object({
    ...Base,
    radiusM: Metres.optional(),
    cellSizeM: Metres.optional(),
    /** raster: for the map; geojson / geotiff: the export (geotiff as base64). Default raster. */
    format: z.enum(['raster', 'geojson', 'geotiff']).optional(),
  })
  .strict();

const Bands = z.array(z.number().min(0).max(1_000_000)).min(2).max(20);
export const NearRepeatInput = z
  .object({
    ...Base,
    spaceBands: Bands,
    spaceUnit: z.enum(['m', 'ft']),
    timeBandsDays: Bands,
    iterations: z.number().int().min(1).max(9999).optional(),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .optional(),
  })
  .strict();

export const RepeatLocationsInput = z
  .object({
    ...Base,
    /**
     * 0 (the default): places by block address, as History lists them (one rule in the engine);
     * else connected groups of incidents closer than this, each named by its commonest address.
     */
    distanceM: z.number().min(0).max(10_000).optional(),
    /** At most this many groups in the answer (largest first); default 200. */
    limit: z.number().int().min(1).max(5000).optional(),
  })
  .strict();

/** CompStat's periods reach back a year and more before it; these days bound what it is asked. */
export const COMPSTAT_AS_OF_RANGE = { from: '1900-01-01', to: '2199-12-31' } as const;

/** CompStat's as-of day: a real calendar day, YYYY-MM-DD, within COMPSTAT_AS_OF_RANGE. */
export const CompStatAsOf = z.string().superRefine((day, ctx) => {
  const problem = compStatAsOfProblem(day);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** Why `day` cannot be CompStat's as-of day, or null when it can. */
export function compStatAsOfProblem(day: string): string | null {
  const { from, to } = COMPSTAT_AS_OF_RANGE;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day))
    return `The as-of date must be written YYYY-MM-DD (got "${day.slice(0, 40)}").`;
  if (day < from || day > to) return `The as-of date must be from ${from} to ${to} (got ${day}).`;
  if (Number.isNaN(dayNumber(day))) return `The as-of date ${day} is not a day of the calendar.`;
  return null;
}

export const CompStatInput = z
  .object({
    ...Base,
    asOf: CompStatAsOf.optional(),
    /** One table per feature of this reference layer (a commander reads it by beat), not per area. */
    layerId: z.number().int().positive().optional(),
    /** csv: the answer also carries the table as CSV (the export's CSV rules). */
    format: z.enum(['json', 'csv']).optional(),
  })
  .strict();

export const AnalysisProvenance = z.object({
  filters: z.record(z.string(), z.unknown()),
  /** The filter's rows: how many incidents the analysis ran on. */
  incidents: z.number().int(),
  coverage: Provenance,
  createdAt: z.string(),
  app: z.object({ name: z.literal('Blotter'), version: z.string() }),
});
export type AnalysisProvenance = z.infer<typeof AnalysisProvenance>;

const Job = { jobId: z.string(), provenance: AnalysisProvenance };
const Ring = z.array(z.tuple([z.number(), z.number()]));
export const GridCollection = z.object({
  type: z.literal('FeatureCollection'),
  parameters: z.record(z.string(), z.unknown()),
  features: z.array(
    z.object({
      type: z.literal('Feature'),
      geometry: z.object({ type: z.literal('Polygon'), coordinates: z.array(Ring) }),
      properties: z.record(z.string(), z.union([z.number(), z.boolean(), z.null()])),
    }),
  ),
});
export type GridCollection = z.infer<typeof GridCollection>;

export const HotSpotsOutput = z.object({ ...Job, geojson: GridCollection });
export type HotSpotsOutput = z.infer<typeof HotSpotsOutput>;

export const KdeRaster = z.object({
  width: z.number().int(),
  height: z.number().int(),
  west: z.number(),
  north: z.number(),
  xRes: z.number(),
  yRes: z.number(),
  /** Float32 little-endian, row-major, first row northernmost; 0 = no data. */
  dataBase64: z.string(),
});
export type KdeRaster = z.infer<typeof KdeRaster>;
export const KdeOutput = z.object({
  ...Job,
  parameters: z.record(z.string(), z.unknown()),
  /** Highest density, incidents per square mile. */
  max: z.number(),
  raster: KdeRaster.optional(),
  geojson: GridCollection.optional(),
  geotiffBase64: z.string().optional(),
});
export type KdeOutput = z.infer<typeof KdeOutput>;

/** One incident of a Knox pair: its id, type, block address and instant with its zone (local time). */
export const KnoxIncidentOut = z.object({
  cdid: z.number(),
  type: z.string(),
  address: z.string(),
  utc: z.number(),
  zone: z.string(),
});
export type KnoxIncidentOut = z.infer<typeof KnoxIncidentOut>;
/** A pair of a significant Knox cell: both incidents, how far apart (in the bands' unit) and how many days. */
export const KnoxPairOut = z.object({
  a: KnoxIncidentOut,
  b: KnoxIncidentOut,
  distance: z.number(),
  days: z.number().int(),
});
export type KnoxPairOut = z.infer<typeof KnoxPairOut>;
export const KnoxCellOut = z.object({
  space: z.tuple([z.number(), z.number()]),
  time: z.tuple([z.number(), z.number()]),
  observed: z.number(),
  expected: z.number(),
  ratio: z.number().nullable(),
  p: z.number(),
  significant: z.boolean(),
  /** A significant cell's pairs, the first 1,000 (`observed` counts them all); absent otherwise. */
  pairs: z.array(KnoxPairOut).optional(),
});
export type KnoxCellOut = z.infer<typeof KnoxCellOut>;
export const NearRepeatOutput = z.object({
  ...Job,
  cells: z.array(KnoxCellOut),
  summary: z.array(z.string()),
  parameters: z.record(z.string(), z.unknown()),
});
export type NearRepeatOutput = z.infer<typeof NearRepeatOutput>;

export const RepeatGroupOut = z.object({
  count: z.number().int(),
  /** The block address, in History's words (a group by distance: its commonest address). */
  address: z.string(),
  /** The most common type. */
  topType: z.string(),
  lat: z.number(),
  lon: z.number(),
  /** Metres from the mean position to the farthest member (0 for an exact point). */
  radiusM: z.number(),
  first: z.string(),
  last: z.string(),
  days: z.array(z.string()),
  /** The first and the latest incident: UTC ms and the zone to show each in local time. */
  firstUtc: z.number(),
  firstZone: z.string(),
  lastUtc: z.number(),
  lastZone: z.string(),
  /** The incidents' ids (cdid), for a drill-down. */
  cdids: z.array(z.number()),
});
export type RepeatGroupOut = z.infer<typeof RepeatGroupOut>;
export const RepeatLocationsOutput = z.object({
  ...Job,
  groups: z.array(RepeatGroupOut),
  totalGroups: z.number().int(),
  parameters: z.record(z.string(), z.unknown()),
});
export type RepeatLocationsOutput = z.infer<typeof RepeatLocationsOutput>;

export const CompStatOutput = z.object({
  ...Job,
  /** The table (src-shared/reportAnalyses.ts: the printed report carries the same shape). */
  areas: z.array(CompStatArea),
  parameters: z.record(z.string(), z.unknown()),
  /** The filters the table counts, in words for its caption (CompStatTable in reportAnalyses.ts). */
  filterWords: z.array(z.string()),
  csv: z.string().optional(),
});
export type CompStatOutput = z.infer<typeof CompStatOutput>;

export const AnalysisKind = z.enum(['hotspots', 'kde', 'nearRepeat', 'repeatLocations', 'compstat']);
export type AnalysisKind = z.infer<typeof AnalysisKind>;

/** Progress of a running analysis (at most every 150 ms), and its end. */
export const AnalysisProgressFields = z.object({
  jobId: z.string(),
  kind: AnalysisKind,
  state: z.enum(['running', 'done', 'failed', 'cancelled']),
  /** 0…1. */
  fraction: z.number(),
});

/**
 * Time playback on the map (issue 15, item 7): the filtered incidents sorted by local day, so a
 * step of the slider is a slice. Day `firstDay + d` holds the incidents offsets[d] … offsets[d + 1]
 * − 1 (offsets has days + 1 entries); lat, lon and typeIndex (into `types`) are in that order.
 */
export const PlaybackPoints = z.object({
  count: z.number().int().nonnegative(),
  /** The first local day 'YYYY-MM-DD' (null when there are no incidents). */
  firstDay: z.string().nullable(),
  /** The filter's dates (its preset resolved; null: open): playback's periods stay inside them. */
  from: z.string().nullable().optional(),
  to: z.string().nullable().optional(),
  offsets: z.instanceof(Uint32Array),
  lat: z.instanceof(Float32Array),
  lon: z.instanceof(Float32Array),
  typeIndex: z.instanceof(Uint8Array),
  types: z.array(z.string()),
});
export type PlaybackPoints = z.infer<typeof PlaybackPoints>;
