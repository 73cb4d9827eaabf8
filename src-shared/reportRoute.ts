/**
 * The printable report page's address and the parameters of a report job — the one module that
 * owns them (hosts, the engine, the CLI and the renderer all read them here). The page is the
 * app's own with the hash `#/report?job=ID[&paper=a4]`; the renderer shows the report instead of
 * the app for it. A job's parameters (`ReportParams`) go with its startExport: `asOf` is the day
 * the bulletin's periods run to, `paper` the sheet the host prints on (Letter unless A4 is asked).
 */
import { z } from 'zod';
import { Paper } from './bulletin';

const JOB = /^[A-Za-z0-9_-]{1,64}$/;

/** The sheet: the bulletin's one paper enum (src-shared/bulletin.ts). */
export const ReportPaper = Paper;
export type ReportPaper = Paper;

/** A report job's own parameters, besides the filters. */
export const ReportParams = z
  .object({
    /** YYYY-MM-DD: the day the report's periods run to (CompStat's as-of, which checks it); today when absent. */
    asOf: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
    paper: ReportPaper.optional(),
  })
  .strict();
export type ReportParams = z.infer<typeof ReportParams>;

/** The report page's route: the job, and the paper when it is not Letter. */
export type ReportRoute = { job: string; paper: ReportPaper };

export const reportHash = (jobId: string, paper: ReportPaper = 'letter'): string =>
  `#/report?job=${encodeURIComponent(jobId)}${paper === 'letter' ? '' : `&paper=${paper}`}`;

/** The route of a report hash, or null when the hash is not the report page's. */
export function reportRouteOf(hash: string): ReportRoute | null {
  const m = /^#\/report\?job=([^&]+)(?:&paper=([a-z0-9]+))?$/.exec(hash);
  const job = m?.[1] ? decodeURIComponent(m[1]) : null;
  if (!job || !JOB.test(job)) return null;
  const paper = ReportPaper.safeParse(m?.[2] ?? 'letter');
  return paper.success ? { job, paper: paper.data } : null;
}

/** The job of a report hash, or null when the hash is not the report page's. */
export const reportJobOf = (hash: string): string | null => reportRouteOf(hash)?.job ?? null;

/** CSS that sets the sheet: printed after the report's own styles, it wins over their Letter. */
export const paperCss = (paper: ReportPaper): string =>
  `@page { size: ${paper === 'a4' ? 'A4' : 'Letter'}; }`;
