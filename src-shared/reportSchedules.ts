/**
 * Emailed bulletins: the report schedules' contract calls (inputs and outputs, zod). A schedule
 * sends an area's report every week at a local weekday and time in the area's zone ("every Monday
 * 07:00"), through the mail server set for alerts. The engine says when one is due (its timer's
 * `reportsDue` event, or `claimDueReports` from `blotter report --send-due`); the host prints the
 * report as every PDF export is printed and hands the job back (`sendScheduledReport`), and the
 * engine mails it and records the send. A missed time is caught up once, not once per missed week.
 */
import { z } from 'zod';
import { Filters } from './filters';
import { ReportPaper, ReportParams } from './reportRoute';

export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const ScheduleId = z.number().int().positive();
const Email = z
  .string()
  .trim()
  .min(3)
  .max(320)
  .regex(/^[^\s@]+@[^\s@]+$/, 'Give an email address.');

/** A schedule's other target: one feature of a reference layer (a beat, a district). */
export const ScheduleFeature = z
  .object({ layerId: z.number().int().positive(), featureId: z.number().int().positive() })
  .strict();
export type ScheduleFeature = z.infer<typeof ScheduleFeature>;

export const ReportScheduleInput = z
  .object({
    /** The area the bulletin is for, or (instead) `feature`. */
    areaId: z.number().int().positive().optional(),
    feature: ScheduleFeature.optional(),
    /** 1 = Monday … 7 = Sunday (ISO). */
    weekday: z.number().int().min(1).max(7).default(1),
    /** HH:MM, local time in the area's zone. */
    time: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Give the time as HH:MM (24-hour), e.g. 07:00.')
      .default('07:00'),
    paper: ReportPaper.default('letter'),
    /** Who gets it; absent: the alerts' email recipients. */
    to: z.array(Email).min(1).max(50).optional(),
  })
  .strict()
  .refine((s) => (s.areaId === undefined) !== (s.feature === undefined), {
    message: 'A schedule is for one area or one feature of a layer: give areaId or feature.',
  });
export type ReportScheduleInput = z.input<typeof ReportScheduleInput>;

export const ReportSchedule = z.object({
  id: ScheduleId,
  /** The area, or null when the schedule is for `feature`. */
  areaId: z.number().int().nullable(),
  /** The target's name: the area's, or "layer: feature". */
  areaName: z.string(),
  feature: ScheduleFeature.extend({ layerName: z.string(), featureName: z.string() }).nullable(),
  weekday: z.number().int(),
  time: z.string(),
  /** The IANA zone the time is read in (the area's centre, or the feature's). */
  zone: z.string(),
  paper: ReportPaper,
  to: z.array(z.string()).nullable(),
  /** The next time it is due (ms). */
  nextDueAt: z.number(),
  lastSentAt: z.number().nullable(),
  lastError: z.string().nullable(),
});
export type ReportSchedule = z.infer<typeof ReportSchedule>;

/** A schedule that is due, claimed for this caller: what to print. */
export const DueReport = z.object({
  scheduleId: ScheduleId,
  /** The due instant this send answers (ms): a missed week is caught up once, as its latest time. */
  dueAt: z.number(),
  filters: Filters,
  report: ReportParams,
});
export type DueReport = z.infer<typeof DueReport>;

export const reportScheduleCalls = {
  listReportSchedules: {
    input: z.object({}).strict(),
    output: z.object({ schedules: z.array(ReportSchedule) }),
  },
  /** Adds a schedule (`id` absent) or replaces one; a new schedule first sends at its next time. */
  saveReportSchedule: {
    input: z.object({ id: ScheduleId.optional(), schedule: ReportScheduleInput }).strict(),
    output: ReportSchedule,
  },
  removeReportSchedule: {
    input: z.object({ id: ScheduleId }).strict(),
    output: z.object({ removed: z.boolean() }),
  },
  /**
   * The due schedules, each claimed for 10 minutes so no other process sends it meanwhile. In
   * office mode only the desktop leading the office's report mail gets any (`leader` says which).
   */
  claimDueReports: {
    input: z.object({}).strict(),
    output: z.object({ due: z.array(DueReport), leader: z.boolean() }),
  },
  /** The host printed a due schedule's report as export `jobId` (or says why not): mail it and record it. */
  sendScheduledReport: {
    input: z
      .object({
        scheduleId: ScheduleId,
        dueAt: z.number(),
        jobId: z.string().max(64).optional(),
        failed: z.string().max(2000).optional(),
      })
      .strict(),
    output: z.object({ sent: z.boolean(), error: z.string().optional() }),
  },
} as const;

/** The engine's timer found schedules due: a host that prints reports sends them (sendDueReports). */
export const ReportsDueFields = z.object({ count: z.number().int().nonnegative() });
