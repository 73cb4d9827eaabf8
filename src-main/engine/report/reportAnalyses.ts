/**
 * The analyses a report prints when its options ask (issue 15, item 9): the Gi* hot spot map and
 * the CompStat table. Both run through the one analysis service (the calls the Analysis view and
 * `blotter analyze` make, on the job's filters, with the engine's defaults), so the report's
 * figures are the view's and the CLI's. Too few incidents is the analysis's refusal in words, shown
 * in the report instead of the figure; any other failure fails the report. The manifest records
 * each analysis's parameters (`analysesManifest`).
 */
import type { ReportAnalyses, ReportHotSpots } from '../../../src-shared/reportAnalyses';
import type { ReportOptions } from '../../../src-shared/reportOptions';
import type { AnalysisService } from '../analysis/service';
import { EngineError } from '../errors';
import type { ExportJob } from '../export/jobs';
import { yieldToEventLoop } from '../eventLoop';

/** The hot spot GeoJSON's parameters that are the analysis's own (filters and coverage are the report's). */
const HOT_SPOT_KEYS = [
  'grid',
  'cell_size_m',
  'distance_band_m',
  'utm_epsg',
  'incidents',
  'cells',
  'masked_cells',
  'weights',
  'fdr',
] as const;

const round5 = (v: number): number => Math.round(v * 1e5) / 1e5;

/**
 * Runs what the options ask for; `jobIds` lets a cancel of the report stop them. `asOf`: the day
 * CompStat's periods end on (a bulletin of a past week), today when not given.
 */
export async function reportAnalyses(
  job: ExportJob,
  options: Pick<ReportOptions, 'hotSpotMap' | 'compStat'>,
  analysis: AnalysisService,
  asOf?: string,
): Promise<ReportAnalyses> {
  const ids = analysisJobIds(job);
  const [hotSpots, compStat] = await Promise.all([
    options.hotSpotMap ? refusedAsWords(hotSpotFigure(job, analysis, ids.hotSpots)) : null,
    options.compStat
      ? refusedAsWords(
          // A turn after the hot spots' start: each resolves its filter in one pass over the rows,
          // and started together both passes ran in one stretch of the engine thread (issue 31).
          yieldToEventLoop()
            .then(() =>
              analysis.compStat({ filters: job.filters, jobId: ids.compStat, ...(asOf ? { asOf } : {}) }),
            )
            .then(({ areas, parameters, filterWords }) => ({ areas, parameters, filterWords })),
        )
      : null,
  ]);
  return { hotSpots, compStat };
}

/** The analysis jobs of a report (so a cancel of the report cancels them too). */
export function analysisJobIds(job: ExportJob): { hotSpots: string; compStat: string; nearRepeat: string } {
  return {
    hotSpots: `report-${job.id}-hotspots`,
    compStat: `report-${job.id}-compstat`,
    nearRepeat: `report-${job.id}-nearrepeat`,
  };
}

async function hotSpotFigure(
  job: ExportJob,
  analysis: AnalysisService,
  jobId: string,
): Promise<ReportHotSpots> {
  const { geojson } = await analysis.hotSpots({ filters: job.filters, jobId });
  const parameters: Record<string, unknown> = {};
  for (const key of HOT_SPOT_KEYS) if (key in geojson.parameters) parameters[key] = geojson.parameters[key];
  const bins: Record<string, number> = { '3': 0, '2': 0, '1': 0, '0': 0, '-1': 0, '-2': 0, '-3': 0 };
  const cells: ReportHotSpots['cells'] = [];
  for (const f of geojson.features) {
    const bin = Number(f.properties.bin ?? 0);
    bins[String(bin)] = (bins[String(bin)] ?? 0) + 1;
    if (bin === 0) continue;
    const ring = (f.geometry.coordinates[0] ?? []).map(
      ([lon, lat]) => [round5(lat), round5(lon)] as [number, number],
    );
    cells.push({ ring, bin, count: Number(f.properties.count ?? 0) });
  }
  // Weakest first, so the 99 % cells draw on top of their neighbours' outlines.
  cells.sort((a, b) => Math.abs(a.bin) - Math.abs(b.bin));
  return { parameters, bins, cells };
}

async function refusedAsWords<T>(work: Promise<T>): Promise<T | { refused: string }> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof EngineError && error.code === 'bad_input') return { refused: error.message };
    throw error;
  }
}

/** What the manifest records of the report's analyses: each one's parameters (or its refusal). */
export function analysesManifest(a: ReportAnalyses): Record<string, Record<string, unknown>> | undefined {
  const out: Record<string, Record<string, unknown>> = {};
  if (a.hotSpots)
    out.hotSpots =
      'refused' in a.hotSpots
        ? { refused: a.hotSpots.refused }
        : { parameters: a.hotSpots.parameters, bins: a.hotSpots.bins };
  if (a.compStat)
    out.compStat =
      'refused' in a.compStat
        ? { refused: a.compStat.refused }
        : {
            parameters: a.compStat.parameters,
            areas: a.compStat.areas.map((x) => ({
              areaId: x.areaId,
              area: x.area,
              zone: x.zone,
              today: x.today,
            })),
          };
  return Object.keys(out).length ? out : undefined;
}
