/**
 * The sheet a report prints on, one rule for the page (its @page size) and the printer (the host's
 * page size): the job's own paper (`blotter report --paper`, a schedule), else the Settings choice,
 * where "auto" follows the locale's paper (LC_PAPER, LC_ALL or LANG; Letter where none says).
 */
import { paperLocale, paperOf, type Paper } from '../../../src-shared/bulletin';
import type { ReportOptions } from '../../../src-shared/reportOptions';
import type { ExportJob } from '../export/jobs';

export function reportPaperOf(job: Pick<ExportJob, 'report'>, options: Pick<ReportOptions, 'paper'>): Paper {
  return (
    job.report.paper ??
    paperOf(options.paper, paperLocale(process.env, Intl.DateTimeFormat().resolvedOptions().locale))
  );
}
