/**
 * The analyses a printed report can hold (issue 15, item 9), as the contract carries them: the
 * CompStat table (the same shape the analyzeCompStat call answers; analysis.ts builds its output
 * from it) and the hot spot map (the significant Gi* cells as [lat, lon] rings with their bins,
 * the cells per bin and the analysis's parameters). A leaf module (zod and filters only), so
 * exports.ts (the report model) and analysis.ts (the calls) both import it without a cycle.
 */
import { z } from 'zod';
import { LatLon } from './filters';

const Count = z.number().int().nonnegative();

/** A comparison: the base count, the change from it, percent change (null below a base of 10). */
const CompStatComparison = z.object({
  base: z.number(),
  change: z.number(),
  /** Null below a base of 10 (src-shared/percentChange.ts). */
  percent: z.number().nullable(),
});
/** A period's count, with the days just before and a year earlier; null where the archive cannot compare. */
const CompStatCell = z.object({
  current: z.number(),
  prior: CompStatComparison.nullable(),
  yearAgo: CompStatComparison.nullable(),
});
const CompStatSide = z.object({
  from: z.string(),
  to: z.string(),
  coverage: z.string(),
  /** Days of the side the archive holds. */
  held: z.number(),
});
const CompStatBase = CompStatSide.extend({ compared: z.boolean() });

/**
 * One area's (or one boundary feature's) CompStat (issue 27): its periods (week to date, last 7,
 * last 28, year to date: each side's days and coverage), a row per group, type and the total, and
 * short notes for the caption (a comparison the archive cannot make is a note, not a "vs 0").
 */
export const CompStatArea = z.object({
  areaId: z.number(),
  area: z.string(),
  zone: z.string(),
  today: z.string(),
  feature: z.object({ layerId: z.number(), layer: z.string(), featureId: z.number() }).optional(),
  periods: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      current: CompStatSide,
      /** The days just before (week to date: the same weekdays of the week before); null for YTD. */
      prior: CompStatBase.nullable(),
      /** The same days a year earlier (364 days back; year to date: the same dates). */
      yearAgo: CompStatBase,
    }),
  ),
  rows: z.array(
    z.object({
      label: z.string(),
      kind: z.enum(['total', 'group', 'type']),
      types: z.array(z.string()),
      cells: z.array(CompStatCell),
    }),
  ),
  notes: z.array(z.string()),
});
export type CompStatArea = z.infer<typeof CompStatArea>;

export const CompStatTable = z.object({
  areas: z.array(CompStatArea),
  parameters: z.record(z.string(), z.unknown()),
  /**
   * The filters the table counts, in words for its caption ("Types: Burglary", "Weekdays:
   * Sunday"): every filter but the dates, which the periods (set by the as-of day) replace.
   */
  filterWords: z.array(z.string()).optional(),
});
export type CompStatTable = z.infer<typeof CompStatTable>;

/** The hot spot map of a report: what the Analysis view draws, for the report's static map. */
export const ReportHotSpots = z.object({
  /** The analysis's own parameters (grid, cell_size_m, distance_band_m, utm_epsg, cells, …). */
  parameters: z.record(z.string(), z.unknown()),
  /** Computed cells per bin ('3' … '-3'), empty cells included. */
  bins: z.record(z.string(), Count),
  /** The significant cells (bin ≠ 0), weakest first so the strongest draw on top. */
  cells: z.array(z.object({ ring: z.array(LatLon), bin: z.number().int(), count: Count })),
});
export type ReportHotSpots = z.infer<typeof ReportHotSpots>;

/** An analysis the report asked for but could not run (too few incidents): its words. */
export const ReportAnalysisRefused = z.object({ refused: z.string() });
export type ReportAnalysisRefused = z.infer<typeof ReportAnalysisRefused>;

export const ReportAnalyses = z.object({
  /** Null when the report was not asked for it. */
  hotSpots: z.union([ReportHotSpots, ReportAnalysisRefused]).nullable(),
  compStat: z.union([CompStatTable, ReportAnalysisRefused]).nullable(),
});
export type ReportAnalyses = z.infer<typeof ReportAnalyses>;
