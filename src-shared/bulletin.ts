/**
 * The weekly bulletin's own part of the report model (issue 27, item 2): the headline the engine
 * writes from the data, the 12-week trend (weeks Monday first, ending with the report's last day),
 * the zone every time is printed in, the paper, the areas' labels for the map, and whether there
 * are too few incidents to compare. Pure zod, and the paper rule (`paperOf`), so the engine, the
 * report page and the command line choose the same paper.
 */
import { z } from 'zod';
import { SeriesResult } from './incidentQueries';

/** CompStat's own floor (engine/analysis/points.ts MIN_INCIDENTS): fewer is too few to compare. */
export const BULLETIN_MIN_INCIDENTS = 30;
/** The headline holds at most this many sentences. */
export const HEADLINE_MAX_SENTENCES = 5;
/** Weeks in the bulletin's trend. */
export const TREND_WEEKS = 12;

/** The Knox test the headline reads: 200 m and 400 m, 7 and 14 days (99 permutations, seeded). */
export const BULLETIN_NEAR_REPEAT = {
  spaceBands: [0, 200, 400],
  spaceUnit: 'm' as const,
  timeBandsDays: [0, 7, 14],
  iterations: 99,
  seed: 1,
};

export const Paper = z.enum(['letter', 'a4']);
export type Paper = z.infer<typeof Paper>;
/** What the analyst chose: the locale's paper, or one of them whatever the locale. */
export const PaperChoice = z.enum(['auto', 'letter', 'a4']);
export type PaperChoice = z.infer<typeof PaperChoice>;

export const ReportBulletin = z.object({
  /** What the bulletin is about: the area's or the feature's name (or "All areas"). */
  place: z.string(),
  /** At most HEADLINE_MAX_SENTENCES sentences, generated from the figures. */
  headline: z.array(z.string()),
  /** The IANA zone the bulletin's times are in (the area's). */
  zone: z.string(),
  paper: Paper,
  /** Weekly counts by type over the TREND_WEEKS weeks ending with the report's last day. */
  trend: SeriesResult,
  /** The area outlines' names and where to write them ([lat, lon]), in the order of map.outlines. */
  labels: z.array(z.object({ name: z.string(), at: z.tuple([z.number(), z.number()]) })),
  /** Fewer incidents than BULLETIN_MIN_INCIDENTS: printed, but the numbers are too few to compare. */
  tooFew: z.boolean(),
});
export type ReportBulletin = z.infer<typeof ReportBulletin>;

/** Regions that print on Letter (the rest of the world uses A4). */
const LETTER_REGIONS = new Set([
  'US',
  'CA',
  'MX',
  'PH',
  'CL',
  'CO',
  'VE',
  'GT',
  'CR',
  'PR',
  'SV',
  'DO',
  'PA',
  'NI',
]);

/**
 * The paper for a choice and a locale ("en_GB.UTF-8", "de-DE", "C"): an explicit choice wins;
 * otherwise Letter in the regions that use it, A4 in any other region, Letter for a locale that
 * names no region (C, POSIX: a cron job's).
 */
export function paperOf(choice: PaperChoice, locale: string | undefined): Paper {
  if (choice !== 'auto') return choice;
  const region = /^[a-z]{2,3}[-_]([A-Z]{2})\b/i.exec(locale ?? '')?.[1]?.toUpperCase();
  if (!region) return 'letter';
  return LETTER_REGIONS.has(region) ? 'letter' : 'a4';
}

/**
 * The locale whose paper the engine reads: LC_PAPER, LC_ALL or LANG as POSIX orders them (LC_ALL
 * overrides), else the runtime's own locale.
 */
export function paperLocale(env: Record<string, string | undefined>, runtime: string): string {
  return env.LC_ALL || env.LC_PAPER || env.LANG || runtime;
}
