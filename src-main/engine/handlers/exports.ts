/**
 * Exports and the printable report: start (CSV, GeoJSON or PDF), cancel, the report's figures for
 * the report page, and the host's answer once it has printed that page. The work is the engine's
 * export service (engine/export, engine/report; built once in services.ts).
 */
import { finishPrint, reportModelOf } from '../report/reportJob';
import type { HandlerGroup } from './handler';

export const exportHandlers = {
  startExport: (input, ctx) => ctx.services.exports.start(input),
  cancelExport: async ({ jobId }, ctx) => ({ cancelled: await ctx.services.exports.cancel(jobId) }),
  getReport: async ({ jobId }, ctx) => reportModelOf(ctx.services.exports.get(jobId)),
  finishReport: async ({ jobId, token, failed }, ctx) => ({
    accepted: await finishPrint(ctx.services.exports.get(jobId), token, failed),
  }),
} satisfies HandlerGroup;
