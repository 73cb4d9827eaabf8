/**
 * One v1 page, one transaction (as applyPage.ts for the live surface): the incidents, the job's
 * next cursor (or done), the coverage-ledger days a finished cursor chain proves, the request-log
 * entry and the run's counters. A kill at any moment leaves all of it or none of it; the job then
 * asks for the same page again (its stored cursor) and deduplication by cdid makes it land once.
 *
 * Dates. The live `date` is the report time; v1 gives `occurred_at`, which precedes it by up to the
 * report lag. A row already held keeps its date when v1's occurred_at is consistent with it
 * (occurred at most the lag + slack before the held time, and not after it), so switching surfaces
 * amends nothing; a new row's date is its occurred_at as local text. The short history form has no
 * address or link: a held row keeps its own.
 */
import { contains } from '../../../src-shared/geo';
import type { ApiIncident } from '../api/schemas';
import type { PageResult } from '../api/source';
import { tileKey } from '../geo/tiles';
import type { Db } from '../store/database';
import { createIncidentRepo } from '../store/incidents/incidentRepo';
import { addDays, localDayOf } from '../time/localDay';
import { zoneAt } from '../time/zoneAt';
import { CLOCK_SLACK_MS, PROVISIONAL_DAYS, MAX_REPORT_LAG_MS } from './constants';
import type { UpsertCounts } from './incidentWriter';
import { tileOfJob, type JobRow } from './jobStore';
import type { Logged } from './requester';
import type { PageApplyBase } from './runTypes';

export type V1ApplyContext = PageApplyBase & {
  /** The last day the chain proves (history: the day its `end` falls on); absent: today. */
  throughDay?: string;
};

/** Whether v1's occurred_at fits a live report time (report − lag − slack ≤ occurred ≤ report + slack). */
export const consistentTimes = (reportUtc: number, occurredUtc: number): boolean =>
  occurredUtc <= reportUtc + CLOCK_SLACK_MS && reportUtc - occurredUtc <= MAX_REPORT_LAG_MS + CLOCK_SLACK_MS;

/** The rows to write: a held row keeps its date (and, from the short form, its address and link). */
export function reconcile(db: Db, rows: readonly ApiIncident[], occurred: readonly number[]): ApiIncident[] {
  const repo = createIncidentRepo(db);
  return rows.map((r, k) => {
    const held = repo.get(r.cdid);
    if (!held || held.source !== 'api') return r;
    const keep = consistentTimes(held.occurred_utc, occurred[k] ?? Number.NaN);
    return {
      ...r,
      date: keep ? held.date_raw : r.date,
      address: r.address === '' ? held.address : r.address,
      link: r.link === '' ? held.link : r.link,
    };
  });
}

export function applyV1Page(
  ctx: V1ApplyContext,
  job: JobRow,
  result: Logged<PageResult>,
): { counts: UpsertCounts; rows: number; done: boolean } {
  return ctx.db
    .transaction(() => {
      const { jobs, now } = ctx;
      const rows = reconcile(ctx.db, result.incidents, result.occurredUtc);
      const { counts, page } = ctx.writer.upsert(rows, now, (lat, lon) => contains(ctx.shape, lat, lon));
      const done = result.nextCursor === null;
      jobs.updateJob(
        job.id,
        {
          since: job.since,
          mode: job.mode,
          ascLast: null,
          state: done ? 'done' : 'pending',
          rows: rows.length,
          estimate: done ? 0 : Math.max(1, job.estimate - 1),
        },
        now,
      );
      jobs.setCursor(job.id, result.nextCursor);
      if (done) {
        // The whole chain answered: every day after `since` through today (or the history's end).
        const tile = tileOfJob(job);
        const zone = zoneAt(tile.lat, tile.lon);
        const today = localDayOf(now, zone);
        const through = ctx.throughDay && ctx.throughDay < today ? ctx.throughDay : today;
        const settled = addDays(today, -PROVISIONAL_DAYS);
        const firm = through < settled ? through : settled;
        const key = tileKey(tile);
        if (firm > job.since) jobs.ledger(ctx.areaId, key, job.since, firm, 'complete', now);
        if (through > firm) {
          jobs.ledger(ctx.areaId, key, firm > job.since ? firm : job.since, through, 'provisional', now);
        }
      }
      jobs.logRequest(ctx.runId, {
        url: result.meta.url,
        status: result.meta.status,
        at: result.meta.startedAt,
        durationMs: result.meta.durationMs,
        records: result.incidents.length,
        error: null,
        ...(result.logId !== undefined ? { logId: result.logId } : {}),
      });
      jobs.addCounts(ctx.runId, { done: 1, requests: 1, new: counts.new, updated: counts.updated });
      ctx.onPageCommitted?.(ctx.db, {
        areaId: ctx.areaId,
        runId: ctx.runId,
        now,
        cdids: page.map((r) => r.cdid),
      });
      return { counts, rows: rows.length, done };
    })
    .immediate();
}
