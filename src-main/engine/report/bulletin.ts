/**
 * The weekly bulletin's figures (issue 27, item 2) beside the report's own: the 12-week trend
 * (weeks Monday first, ending with the report's last day; the job's filters with their dates
 * replaced), the zone its times are printed in (the incidents' own), the paper (the analyst's
 * choice, else the locale's), what it is about, and the headline written from CompStat's table,
 * the Gi* bins, a Knox near-repeat test over the trend's weeks and the archive's missing days.
 */
import {
  BULLETIN_MIN_INCIDENTS,
  BULLETIN_NEAR_REPEAT,
  TREND_WEEKS,
  type Paper,
  type ReportBulletin,
} from '../../../src-shared/bulletin';
import { dayNumber, dayString, type Filters } from '../../../src-shared/filters';
import { computerZone } from '../../../src-shared/localTime';
import type { CompStatTable, ReportAnalyses } from '../../../src-shared/reportAnalyses';
import type { Provenance } from '../../../src-shared/exports';
import type { AnalysisService } from '../analysis/service';
import { EngineError } from '../errors';
import { rowsOf, type ExportJob } from '../export/jobs';
import { incidentCalls } from '../query/index';
import { bucketStart } from '../query/series';
import { bulletinHeadline } from './bulletinHeadline';

/** The days of the TREND_WEEKS weeks (Monday first) whose last is the week holding `last`. */
export function trendDays(last: string): { from: string; to: string } {
  const end = dayNumber(last);
  return { from: dayString(bucketStart(end, 'week') - 7 * (TREND_WEEKS - 1)), to: last };
}

/** The job's filters over other days (every other filter kept). */
export function filtersOver(filters: Filters, days: { from: string; to: string }): Filters {
  const { preset: _preset, from: _from, to: _to, ...rest } = filters;
  return { ...rest, from: days.from, to: days.to };
}

/** The zone most of the job's incidents are in; the computer's when it has none. */
export function zoneOf(job: ExportJob): string {
  const { snapshot, set } = rowsOf(job);
  // A count per zone id (a typed array, not a Map: at 1M rows the Map took ~40 ms).
  const counts = new Uint32Array(snapshot.zones.values.length);
  for (let k = 0; k < set.rows.length; k++) {
    const z = snapshot.zone[set.rows[k] as number] as number;
    counts[z] = (counts[z] as number) + 1;
  }
  let best = -1;
  let most = 0;
  counts.forEach((n, z) => {
    if (n > most) [best, most] = [z, n];
  });
  return best >= 0 ? (snapshot.zones.values[best] ?? computerZone()) : computerZone();
}

export type BulletinInput = {
  job: ExportJob;
  today: string;
  /** The sheet, as reportPaper.ts resolves it. */
  paper: Paper;
  analyses: ReportAnalyses;
  /** The Gi* bins the headline reads (the map of them is printed only when asked). */
  hotSpotBins: Record<string, number> | null;
  provenance: Provenance;
  /** The area outlines' names, as the map's labels. */
  labels: ReportBulletin['labels'];
  fallbackPlace: string;
};

export async function buildBulletin(
  input: BulletinInput,
  analysis: AnalysisService | null,
  nearRepeatJobId: string,
): Promise<ReportBulletin> {
  const { job } = input;
  const last = job.range.to ?? input.today;
  const days = trendDays(last < input.today ? last : input.today);
  const trend = await incidentCalls.historySeries(job.service, {
    filters: filtersOver(job.filters, days),
    interval: 'week',
  });
  const tooFew = job.total < BULLETIN_MIN_INCIDENTS;
  const table = compStatTable(input.analyses);
  const place =
    table?.areas.length === 1 ? (table.areas[0]?.area ?? input.fallbackPlace) : input.fallbackPlace;
  const nearRepeat =
    analysis && !tooFew
      ? await nearRepeatOf(analysis, filtersOver(job.filters, days), nearRepeatJobId)
      : null;
  const headline = bulletinHeadline({
    place,
    total: job.total,
    minIncidents: BULLETIN_MIN_INCIDENTS,
    compStat: table?.areas.length === 1 ? (table.areas[0] ?? null) : null,
    hotSpotBins: tooFew ? null : input.hotSpotBins,
    nearRepeat,
    gaps: input.provenance.areas.flatMap((a) => a.gaps),
  });
  return {
    place,
    headline,
    zone: zoneOf(job),
    paper: input.paper,
    trend,
    labels: input.labels,
    tooFew,
  };
}

const compStatTable = (a: ReportAnalyses): CompStatTable | null =>
  a.compStat && !('refused' in a.compStat) ? a.compStat : null;

async function nearRepeatOf(
  analysis: AnalysisService,
  filters: Filters,
  jobId: string,
): Promise<{ significant: boolean; sentence: string } | null> {
  try {
    const r = await analysis.nearRepeat({ filters, jobId, ...BULLETIN_NEAR_REPEAT });
    const significant = r.cells.some((c) => c.significant && c.ratio !== null && c.ratio > 1);
    const sentence = r.summary[0];
    if (!sentence) return null;
    // "Incidents within 200 m … (p = 0.01)." → said of the trend's weeks.
    return {
      significant,
      sentence: significant ? `Near repeats over ${TREND_WEEKS} weeks: ${lowerFirst(sentence)}` : sentence,
    };
  } catch (error) {
    if (error instanceof EngineError && error.code === 'bad_input') return null;
    throw error;
  }
}

const lowerFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);

/**
 * What the manifest records of the bulletin: the headline as printed, where its figures came from
 * (the trend's weeks, the near-repeat test's parameters), its zone and paper.
 */
export function bulletinManifest(b: ReportBulletin): Record<string, unknown> {
  return {
    place: b.place,
    headline: b.headline,
    zone: b.zone,
    paper: b.paper,
    trendWeeks: b.trend.range,
    tooFew: b.tooFew,
    nearRepeat: BULLETIN_NEAR_REPEAT,
  };
}
