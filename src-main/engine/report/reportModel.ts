/**
 * The figures of the printed report, computed once when a PDF export starts (so the page that is
 * printed shows exactly the job's filter): counts by type, the trend (by day, week or month,
 * whichever gives a readable chart for the range), the hour × weekday grid, the top locations,
 * the area outlines and a sample of points for the static map, and the provenance box; with the
 * title, agency, notes and (when asked) the incident list, the hot spot map and the CompStat table
 * the analyst last chose (settings `report`; the analyses through the one analysis service).
 */
import type { ReportModel } from '../../../src-shared/exports';
import { intervalFor } from '../../../src-shared/intervals';
import { BULLETIN_MIN_INCIDENTS } from '../../../src-shared/bulletin';
import type { ReportAnalyses } from '../../../src-shared/reportAnalyses';
import {
  REPORT_INCIDENT_LIST_MAX,
  reportOptionsOf,
  type ReportOptions,
} from '../../../src-shared/reportOptions';
import type { AnalysisService } from '../analysis/service';
import type { EngineCore } from '../core';
import { rowsOf, type ExportCore, type ExportJob } from '../export/jobs';
import { yieldToEventLoop } from '../eventLoop';
import { incidentCalls } from '../query/index';
import { provenanceOf, areasInScope } from '../provenance/provenance';
import { outlineOf } from '../../../src-shared/geo';
import { analysisJobIds, reportAnalyses } from './reportAnalyses';
import { buildBulletin } from './bulletin';
import { reportPaperOf } from './reportPaper';
import { createLayerStore } from '../boundaries/layerStore';
import type { Filters } from '../../../src-shared/filters';

export const MAP_POINTS = 4000;
export const TOP_LOCATIONS = 12;

export async function buildReportModel(
  job: ExportJob,
  ctx: ExportCore,
  analysis: AnalysisService | null = null,
): Promise<ReportModel> {
  const { service, filters } = job;
  const resolved = rowsOf(job);
  const { snapshot, set } = resolved;
  // Each figure is a pass over the job's rows (20–60 ms at 1M): a turn of the engine's event loop
  // between them, so a call asked meanwhile is answered (issue 31).
  const series0 = await incidentCalls.historySeries(service, { filters, interval: 'month' });
  const interval = intervalFor(series0.range.from, series0.range.to);
  await yieldToEventLoop();
  const series =
    interval === 'month' ? series0 : await incidentCalls.historySeries(service, { filters, interval });
  await yieldToEventLoop();
  const grid = await incidentCalls.hourWeekdayGrid(service, { filters });
  await yieldToEventLoop();
  const top = await incidentCalls.topLocations(service, { filters, limit: TOP_LOCATIONS });
  await yieldToEventLoop();
  const options = reportOptionsOf(ctx.settings.get().report);
  const incidents = options.incidentList
    ? await incidentCalls.listIncidents(service, {
        filters,
        sort: { by: 'date', dir: 'desc' },
        offset: 0,
        limit: REPORT_INCIDENT_LIST_MAX,
      })
    : null;
  const box = job.box;
  await yieldToEventLoop();
  const { analyses, hotSpotBins } = await bulletinAnalyses(job, options, analysis);
  await yieldToEventLoop();

  const step = Math.max(1, Math.ceil(set.count / MAP_POINTS));
  const points = { lat: [] as number[], lon: [] as number[], type: [] as number[] };
  for (let k = 0; k < set.count; k += step) {
    const row = set.rows[k] as number;
    points.lat.push(Math.round((snapshot.lat[row] as number) * 1e5) / 1e5);
    points.lon.push(Math.round((snapshot.lon[row] as number) * 1e5) / 1e5);
    points.type.push(snapshot.type[row] as number);
  }
  const area = filters.area;
  const named =
    area && !('areaId' in area)
      ? [
          {
            name: 'Drawn area',
            ring: outlineOf(
              'circle' in area
                ? { kind: 'circle', ...area.circle }
                : { kind: 'polygon', points: area.polygon },
            ),
          },
        ]
      : (featureOutlines(ctx, filters) ??
        areasInScope(ctx, filters, box).map((a) => ({ name: a.name, ring: outlineOf(a.shape) })));
  const outlines = named.map((a) => a.ring);
  const provenance = await provenanceOf(ctx, service, filters, job.range, box);
  await yieldToEventLoop();
  const bulletin = await buildBulletin(
    {
      job,
      today: service.today(),
      paper: reportPaperOf(job, options),
      analyses,
      hotSpotBins,
      provenance,
      // One label a name: a feature of several parts is named once, on its first.
      labels: named
        .filter((a, k) => named.findIndex((b) => b.name === a.name) === k)
        .map((a) => ({ name: a.name, at: labelPoint(a.ring) })),
      fallbackPlace: named.length === 1 ? (named[0]?.name ?? 'all areas') : 'all areas',
    },
    analysis,
    analysisJobIds(job).nearRepeat,
  );

  return {
    jobId: job.id,
    title: options.title,
    agency: options.agency,
    notes: options.notes.trim(),
    incidents: incidents ? { rows: incidents.rows, total: incidents.total } : null,
    createdAt: job.createdAt,
    version: ctx.version,
    filters,
    filterWords: job.words,
    range: series.range,
    total: job.total,
    byType: Object.entries(job.byType)
      .filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([type, count]) => ({ type, count })),
    series,
    grid,
    top: top.locations,
    map: { outlines, points, shown: points.lat.length },
    provenance,
    analyses,
    bulletin,
  };
}

/**
 * A bulletin of one feature of a layer (a beat) outlines that feature, named, instead of the
 * synced areas around it: each polygon's outer ring (a point feature has none: null).
 */
export function featureOutlines(
  ctx: Pick<EngineCore, 'db'>,
  filters: Filters,
): { name: string; ring: [number, number][] }[] | null {
  if (!filters.feature) return null;
  const feature = createLayerStore(ctx.db).feature(filters.feature.featureId);
  if (!feature || feature.geometry.kind !== 'polygons') return null;
  return feature.geometry.polygons.map((rings) => ({
    name: feature.name,
    ring: (rings[0] ?? []).map(([lat, lon]) => [lat, lon] as [number, number]),
  }));
}

/** Where an outline's name is written: its northernmost point (the label hangs below it). */
export function labelPoint(ring: [number, number][]): [number, number] {
  let best: [number, number] = ring[0] ?? [0, 0];
  for (const p of ring) if (p[0] > best[0]) best = p;
  return best;
}

/**
 * The bulletin's analyses: CompStat's table always (the bulletin's), the hot spot map when asked
 * (its bins feed the headline either way); under CompStat's floor no comparison is made, and the
 * table's place says the numbers are too few. `asOf`: the job's own (`blotter report --as-of`, a
 * schedule), else a report ending before today ends there.
 */
async function bulletinAnalyses(
  job: ExportJob,
  options: ReportOptions,
  analysis: AnalysisService | null,
): Promise<{ analyses: ReportAnalyses; hotSpotBins: Record<string, number> | null }> {
  if (!analysis) return { analyses: { hotSpots: null, compStat: null }, hotSpotBins: null };
  const today = job.service.today();
  const asOf = job.report.asOf ?? (job.range.to && job.range.to < today ? job.range.to : undefined);
  if (job.total < BULLETIN_MIN_INCIDENTS) {
    const a = await reportAnalyses(job, { hotSpotMap: options.hotSpotMap, compStat: false }, analysis);
    const refused = `The filters match ${count(job.total)} incidents: too few to compare (a comparison needs at least ${BULLETIN_MIN_INCIDENTS} incidents).`;
    return { analyses: { ...a, compStat: { refused } }, hotSpotBins: null };
  }
  const a = await reportAnalyses(job, { hotSpotMap: true, compStat: true }, analysis, asOf);
  const hotSpotBins = a.hotSpots && !('refused' in a.hotSpots) ? a.hotSpots.bins : null;
  return { analyses: { ...a, hotSpots: options.hotSpotMap ? a.hotSpots : null }, hotSpotBins };
}

const count = (n: number): string => n.toLocaleString('en-US');
