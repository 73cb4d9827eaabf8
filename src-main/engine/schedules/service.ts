/**
 * The engine's report schedules: the calls (src-shared/reportSchedules.ts) and the timer. The
 * engine cannot print, so when a schedule is due its timer says so (`reportsDue`) and a host that
 * prints reports (the web host; `blotter report --send-due` from cron) runs `sendDueReports`:
 * claim the due schedules, print each as a PDF export, hand the job back to be mailed here. The
 * send is recorded per schedule with the due time it answers, so each due time is mailed once,
 * and a folder that missed several weeks sends the latest one only. In office mode only the
 * desktop leading the office's report mail (a lease in PostgreSQL) gets due schedules.
 */
import type { DueReport, ReportSchedule, ReportScheduleInput } from '../../../src-shared/reportSchedules';
import type { EngineCore } from '../core';
import { EngineError } from '../errors';
import type { ExportJobs } from '../export/jobs';
import { bulletinWeek } from './due';
import { mailReport, type ReportMailDeps } from './mail';
import { createScheduleStore, viewOf } from './store';

export const CHECK_EVERY_MS = 60_000;

export type ScheduleServiceDeps = {
  exports: ExportJobs;
  /** Whether this process may send (standalone: always; office mode: it leads the report mail). */
  leads: () => Promise<boolean>;
  now?: () => number;
  checkEveryMs?: number;
  transport?: ReportMailDeps['transport'];
};

export function createReportScheduleService(
  core: Pick<EngineCore, 'db' | 'secrets' | 'settings' | 'log' | 'emit' | 'host'>,
  deps: ScheduleServiceDeps,
) {
  const store = createScheduleStore(core.db);
  const now = deps.now ?? Date.now;
  const mailDeps: ReportMailDeps = {
    db: core.db,
    secrets: core.secrets,
    profileId: () => core.settings.profileId(),
    log: core.log,
    ...(deps.transport ? { transport: deps.transport } : {}),
  };
  let timer: ReturnType<typeof setInterval> | null = null;
  let first: ReturnType<typeof setTimeout> | null = null;

  const leads = async (): Promise<boolean> => {
    try {
      return await deps.leads();
    } catch (error) {
      core.log.warn('report schedules: cannot tell whether this desktop leads the report mail', {
        error: (error as Error).message,
      });
      return false;
    }
  };

  /** The timer's look: due schedules, and this process may send them → `reportsDue`. */
  async function check(): Promise<number> {
    const count = store.due(now()).length;
    if (count > 0 && (await leads())) core.emit({ type: 'reportsDue', count });
    return count;
  }

  return {
    /** Starts the timer (not for the CLI, whose `report --send-due` asks once). */
    start(): void {
      if (core.host === 'cli' || timer) return;
      const look = () =>
        void check().catch((error: unknown) => core.log.warn('report schedules: check failed', { error }));
      timer = setInterval(look, deps.checkEveryMs ?? CHECK_EVERY_MS);
      timer.unref?.();
      first = setTimeout(look, 2_000);
      first.unref?.();
    },
    /** Stops both looks: an engine closed in its first seconds must not read its closed file. */
    stop(): void {
      if (timer) clearInterval(timer);
      if (first) clearTimeout(first);
      timer = null;
      first = null;
    },
    check,
    list(): { schedules: ReportSchedule[] } {
      const t = now();
      return { schedules: store.list().map((s) => viewOf(s, t)) };
    },
    save(id: number | undefined, input: ReportScheduleInput): ReportSchedule {
      const t = now();
      return viewOf(store.save(input, t, id), t);
    },
    remove(id: number): { removed: boolean } {
      return { removed: store.remove(id) };
    },
    /** The due schedules, claimed for this caller, with what to print. */
    async claimDue(): Promise<{ due: DueReport[]; leader: boolean }> {
      if (!(await leads())) return { due: [], leader: false };
      const t = now();
      const due = store
        .due(t)
        .filter(({ schedule, dueAt }) => store.claim(schedule.id, dueAt, t))
        .map(({ schedule, dueAt }) => {
          const week = bulletinWeek(schedule, dueAt);
          return {
            scheduleId: schedule.id,
            dueAt,
            filters: {
              ...(schedule.feature
                ? { feature: { layerId: schedule.feature.layerId, featureId: schedule.feature.featureId } }
                : { area: { areaId: schedule.areaId ?? 0 } }),
              from: week.from,
              to: week.to,
            },
            report: { asOf: week.to, paper: schedule.paper },
          };
        });
      return { due, leader: true };
    },
    /** Mails the report the host printed for a claimed schedule (or records why it was not). */
    async send(input: {
      scheduleId: number;
      dueAt: number;
      jobId?: string | undefined;
      failed?: string | undefined;
    }): Promise<{ sent: boolean; error?: string }> {
      const schedule = store.get(input.scheduleId);
      if (!schedule) throw new EngineError('not_found', `There is no report schedule ${input.scheduleId}.`);
      if (schedule.claimedUntil === null || schedule.claimedUntil <= now())
        throw new EngineError(
          'conflict',
          'That schedule is not claimed for sending (claimDueReports first).',
        );
      const fail = (error: string) => {
        store.failed(schedule.id, error);
        return { sent: false, error };
      };
      if (input.failed !== undefined) return fail(`The report could not be printed: ${input.failed}`);
      const job = input.jobId === undefined ? undefined : deps.exports.get(input.jobId);
      if (!job || job.format !== 'pdf' || job.state !== 'done' || !job.file)
        return fail('The report was not printed, so nothing was mailed.');
      const week = bulletinWeek(schedule, input.dueAt);
      const mailed = await mailReport(mailDeps, schedule, {
        file: job.file.path,
        ...week,
        dueAt: input.dueAt,
      });
      if (!mailed.ok) return fail(mailed.error);
      store.sent(schedule.id, input.dueAt, now());
      return { sent: true };
    },
  };
}

export type ReportScheduleService = ReturnType<typeof createReportScheduleService>;
