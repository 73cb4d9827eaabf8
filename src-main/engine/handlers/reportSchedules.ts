/** Emailed bulletins: the report schedules (engine/schedules/service.ts; built once in services.ts). */
import type { HandlerGroup } from './handler';

export const reportScheduleHandlers = {
  listReportSchedules: async (_input, ctx) => ctx.services.schedules.list(),
  saveReportSchedule: async ({ id, schedule }, ctx) => ctx.services.schedules.save(id, schedule),
  removeReportSchedule: async ({ id }, ctx) => ctx.services.schedules.remove(id),
  claimDueReports: async (_input, ctx) => ctx.services.schedules.claimDue(),
  sendScheduledReport: async (input, ctx) => ctx.services.schedules.send(input),
} satisfies HandlerGroup;
