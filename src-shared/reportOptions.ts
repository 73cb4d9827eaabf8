/**
 * What an analyst sets for the printed report (a bulletin to hand over): its title, the agency's
 * name, the analyst's notes and whether to list the incidents. Stored in settings (`report`) so the
 * next report starts from the last one's; the engine reads them when a PDF export starts.
 */
import { z } from 'zod';

/** The incident list of a report stops here (newest first); the CSV export has them all. */
export const REPORT_INCIDENT_LIST_MAX = 500;

export const ReportOptions = z.object({
  title: z.string().trim().max(120),
  agency: z.string().trim().max(120),
  notes: z.string().max(4000),
  incidentList: z.boolean(),
});
export type ReportOptions = z.infer<typeof ReportOptions>;

export const DEFAULT_REPORT_TITLE = 'Incident report';

export const DEFAULT_REPORT_OPTIONS: ReportOptions = {
  title: DEFAULT_REPORT_TITLE,
  agency: '',
  notes: '',
  incidentList: false,
};

/** The stored options over the defaults; an empty title falls back to the default one. */
export function reportOptionsOf(stored: Partial<ReportOptions> | undefined): ReportOptions {
  const o = { ...DEFAULT_REPORT_OPTIONS, ...stored };
  return { ...o, title: o.title.trim() || DEFAULT_REPORT_TITLE };
}
