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
import { REPORT_INCIDENT_LIST_MAX, reportOptionsOf } from '../../../src-shared/reportOptions';
import type { AnalysisService } from '../analysis/service';
import type { EngineCore } from '../context';
import { rowsOf, type ExportJob } from '../export/jobs';
import { incidentCalls } from '../query/index';
import { provenanceOf, areasInScope } from '../provenance/provenance';
import { outlineOf } from '../../../src-shared/geo';
import { reportAnalyses } from './reportAnalyses';

export const MAP_POINTS = 4000;
export const TOP_LOCATIONS = 12;

export async function buildReportModel(
  job: ExportJob,
  ctx: EngineCore,
  analysis: AnalysisService | null = null,
): Promise<ReportModel> {
  const { service, filters } = job;
  const resolved = rowsOf(job);
  const { snapshot, set } = resolved;
  const series0 = await incidentCalls.historySeries(service, { filters, interval: 'month' });
  const interval = intervalFor(series0.range.from, series0.range.to);
  const series =
    interval === 'month' ? series0 : await incidentCalls.historySeries(service, { filters, interval });
  const grid = await incidentCalls.hourWeekdayGrid(service, { filters });
  const top = await incidentCalls.topLocations(service, { filters, limit: TOP_LOCATIONS });
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
  const analyses =
    analysis && (options.hotSpotMap || options.compStat)
      ? await reportAnalyses(job, options, analysis)
      : { hotSpots: null, compStat: null };

  const step = Math.max(1, Math.ceil(set.count / MAP_POINTS));
  const points = { lat: [] as number[], lon: [] as number[], type: [] as number[] };
  for (let k = 0; k < set.count; k += step) {
    const row = set.rows[k] as number;
    points.lat.push(Math.round((snapshot.lat[row] as number) * 1e5) / 1e5);
    points.lon.push(Math.round((snapshot.lon[row] as number) * 1e5) / 1e5);
    points.type.push(snapshot.type[row] as number);
  }
  const outlines =
    filters.area && !('areaId' in filters.area)
      ? [
          outlineOf(
            'circle' in filters.area
              ? { kind: 'circle', ...filters.area.circle }
              : { kind: 'polygon', points: filters.area.polygon },
          ),
        ]
      : areasInScope(ctx, filters, box).map((a) => outlineOf(a.shape));

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
    provenance: await provenanceOf(ctx, service, filters, job.range, box),
    analyses,
  };
}
