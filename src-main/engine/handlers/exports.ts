/**
 * Exports and the printable report: start (CSV, GeoJSON or PDF), cancel, the report's figures for
 * the report page, and the host's answer once it has printed that page (engine/export,
 * engine/report). One job registry per engine; closing the engine cancels what still runs.
 */
import type { EngineContext } from '../context';
import { dataRunner } from '../export/dataExport';
import { ExportJobs } from '../export/jobs';
import { finishPrint, pdfRunner, reportModelOf } from '../report/reportJob';
import type { HandlerGroup } from './handler';

const registries = new WeakMap<EngineContext, ExportJobs>();

export function exportJobsOf(ctx: EngineContext): ExportJobs {
  let jobs = registries.get(ctx);
  if (!jobs) {
    jobs = new ExportJobs(ctx, { csv: dataRunner, geojson: dataRunner, pdf: pdfRunner() });
    registries.set(ctx, jobs);
    const registered = jobs;
    ctx.onClose(() => registered.closeAll());
  }
  return jobs;
}

export const exportHandlers = {
  startExport: (input, ctx) => exportJobsOf(ctx).start(input),
  cancelExport: async ({ jobId }, ctx) => ({ cancelled: await exportJobsOf(ctx).cancel(jobId) }),
  getReport: async ({ jobId }, ctx) => reportModelOf(exportJobsOf(ctx).get(jobId)),
  finishReport: async ({ jobId, token, failed }, ctx) => ({
    accepted: await finishPrint(exportJobsOf(ctx).get(jobId), token, failed),
  }),
} satisfies HandlerGroup;
