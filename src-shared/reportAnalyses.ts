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

const CompStatCell = z.object({
  current: z.number(),
  previous: z.number(),
  difference: z.number(),
  /** Null below a base of 10 (src-shared/percentChange.ts). */
  percent: z.number().nullable(),
});
const CompStatSide = z.object({ from: z.string(), to: z.string(), coverage: z.string() });

/** One area's CompStat: its periods (both sides' days, coverage and caveat) and a row per type. */
export const CompStatArea = z.object({
  areaId: z.number(),
  area: z.string(),
  zone: z.string(),
  today: z.string(),
  periods: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      current: CompStatSide,
      previous: CompStatSide,
      caveat: z.string().nullable(),
    }),
  ),
  rows: z.array(z.object({ type: z.string(), cells: z.array(CompStatCell) })),
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
