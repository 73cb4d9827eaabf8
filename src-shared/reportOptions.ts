/**
 * What an analyst sets for the printed report (a bulletin to hand over): its title, the agency's
 * name, the analyst's notes, whether to list the incidents and whether to add the hot spot map and
 * the CompStat table. Stored in settings (`report`) so the next report starts from the last one's;
 * the engine reads them when a PDF export starts.
 */
import { z } from 'zod';
import { PaperChoice } from './bulletin';

/** The incident list of a report stops here (newest first); the CSV export has them all. */
export const REPORT_INCIDENT_LIST_MAX = 500;

export const ReportOptions = z.object({
  title: z.string().trim().max(120),
  agency: z.string().trim().max(120),
  notes: z.string().max(4000),
  incidentList: z.boolean(),
  /** The Getis-Ord Gi* hot spot map (the Analysis view's defaults) on the report's map extent. */
  hotSpotMap: z.boolean().default(false),
  /** The CompStat table per area and type (week to date, 7 and 28 days, year to date). */
  compStat: z.boolean().default(false),
  /** Letter or A4; 'auto': the locale's paper (src-shared/bulletin.ts paperOf). */
  paper: PaperChoice.default('auto'),
});
export type ReportOptions = z.infer<typeof ReportOptions>;

export const DEFAULT_REPORT_TITLE = 'Incident report';

export const DEFAULT_REPORT_OPTIONS: ReportOptions = {
  title: DEFAULT_REPORT_TITLE,
  agency: '',
  notes: '',
  incidentList: false,
  hotSpotMap: false,
  compStat: false,
  paper: 'auto',
};

/** The stored options over the defaults; an empty title falls back to the default one. */
export function reportOptionsOf(stored: Partial<ReportOptions> | undefined): ReportOptions {
  const o = { ...DEFAULT_REPORT_OPTIONS, ...stored };
  return { ...o, title: o.title.trim() || DEFAULT_REPORT_TITLE };
}
