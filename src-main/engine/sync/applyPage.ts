/**
 * One response, one transaction: the incidents, the job's new state (frontier, split children,
 * done), the coverage-ledger days the page proves, the request-log entry and the run's counters.
 * A kill at any moment leaves either all of it or none of it; the job then asks the same question
 * again and deduplication by cdid makes the answer land once.
 */
import type { SearchResult } from '../api/source';
import { contains } from '../../../src-shared/geo';
import { tileKey } from '../geo/tiles';
import { addDays, localDayOf } from '../time/localDay';
import { zoneAt } from '../time/zoneAt';
import { DAY, PROVISIONAL_DAYS } from './constants';
import { decide, type Outcome } from './decide';
import type { PageRow } from './frontier';
import type { UpsertCounts } from './incidentWriter';
import { tileOfJob, typesOfJob, type JobRow } from './jobStore';
import type { Logged } from './requester';
import type { PageApplyBase } from './runTypes';
import { NO_SINCE } from './windowStart';

export type ApplyContext = PageApplyBase & {
  knownTypes?: () => readonly string[];
  /** The plan window in days: where an empty answer to a question with no since starts proving. */
  windowDays?: number;
};

export type Applied = { outcome: Outcome; counts: UpsertCounts; rows: number };

/** Where a split's child job starts. */
type ChildStart = { since: string; estimate: number; mode: JobRow['mode']; ascLastUtc: number | null };

export function applyPage(
  ctx: ApplyContext,
  job: JobRow,
  sentSince: string,
  result: Logged<SearchResult>,
): Applied {
  return ctx.db
    .transaction((): Applied => {
      const { jobs, now } = ctx;
      const { counts, page } = ctx.writer.upsert(result.incidents, now, (lat, lon) =>
        contains(ctx.shape, lat, lon),
      );
      const sorted = [...page].sort((a, b) => a.utcMs - b.utcMs || a.cdid - b.cdid);
      const tile = tileOfJob(job);
      const types = typesOfJob(job);
      const view = { tile, types, since: sentSince, mode: job.mode, ascLastUtc: job.asc_last_utc };
      const ordered = job.mode === 'asc' ? sorted : [...sorted].reverse();
      const outcome = decide(view, ordered, { shape: ctx.shape, now, knownTypes: ctx.knownTypes });

      writeLedger(
        ctx,
        tileKey(tile) + (types ? `|${types.join(',')}` : ''),
        zoneAt(tile.lat, tile.lon),
        sentSince,
        job.mode,
        outcome,
        sorted,
      );
      const rootId = job.root_id ?? job.id;
      /** A child job: a smaller tile or one type, asked from where this job's answer leaves off. */
      const insertChild = (childTile: typeof tile, childTypes: typeof types, n: ChildStart): void => {
        jobs.insertJob(
          ctx.runId,
          {
            parentId: job.id,
            rootId,
            tile: childTile,
            types: childTypes,
            since: n.since,
            estimate: n.estimate,
            mode: n.mode,
            ascLastUtc: n.ascLastUtc,
          },
          now,
        );
      };
      let state: JobRow['state'] = 'pending';
      let next: ChildStart = {
        since: job.since,
        mode: job.mode,
        ascLastUtc: job.asc_last_utc,
        estimate: 0,
      };
      let error: string | null = null;
      switch (outcome.kind) {
        case 'done':
          state = 'done';
          break;
        case 'continue':
          next = outcome.next;
          break;
        case 'failed':
          state = 'failed';
          error = outcome.reason;
          break;
        case 'split-space':
          state = 'split';
          for (const child of outcome.children) insertChild(child.tile, types, child.next);
          break;
        case 'split-types':
          state = 'split';
          for (const group of outcome.groups) insertChild(tile, group, outcome.next);
          break;
      }
      jobs.updateJob(
        job.id,
        {
          since: next.since,
          mode: next.mode,
          ascLast: next.ascLastUtc,
          state,
          rows: result.incidents.length,
          estimate: state === 'pending' ? next.estimate : 0,
          error,
        },
        now,
      );
      jobs.logRequest(ctx.runId, {
        url: result.meta.url,
        status: result.meta.status,
        at: result.meta.startedAt,
        durationMs: result.meta.durationMs,
        records: result.incidents.length,
        error: null,
        logId: result.logId,
      });
      jobs.addCounts(ctx.runId, { done: 1, requests: 1, new: counts.new, updated: counts.updated });
      ctx.onPageCommitted?.(ctx.db, {
        areaId: ctx.areaId,
        runId: ctx.runId,
        now,
        cdids: page.map((r) => r.cdid),
      });
      return { outcome, counts, rows: result.incidents.length };
    })
    .immediate();
}

/**
 * Ledger days this page settles for its tile (occurred days, as `since` counts them). A page asked
 * with no since (the window's own start) settles the days after its first day — the oldest report's
 * day in the area's zone, or for an empty answer the day the window starts — and marks that first
 * day provisional: the window may start inside it.
 */
function writeLedger(
  ctx: ApplyContext,
  key: string,
  zone: string,
  sent: string,
  mode: JobRow['mode'],
  outcome: Outcome,
  rows: PageRow[],
): void {
  let since = sent;
  let partial: string | null = null;
  if (sent === NO_SINCE) {
    const oldest = rows[0];
    if (oldest && mode === 'asc') partial = localDayOf(oldest.utcMs, zone);
    else if (ctx.windowDays !== undefined) partial = localDayOf(ctx.now - ctx.windowDays * DAY, zone);
    else return;
    since = partial;
  }
  const proves =
    outcome.kind === 'done' ||
    ((outcome.kind === 'continue' || outcome.kind === 'split-space') &&
      outcome.proven !== null &&
      outcome.proven > since);
  if (partial !== null && proves)
    ctx.jobs.ledger(ctx.areaId, key, addDays(partial, -1), partial, 'provisional', ctx.now);
  const today = localDayOf(ctx.now, zone);
  const settled = addDays(today, -PROVISIONAL_DAYS);
  const complete = (through: string): void => {
    const firm = through < settled ? through : settled;
    if (firm > since) ctx.jobs.ledger(ctx.areaId, key, since, firm, 'complete', ctx.now);
    if (through > firm)
      ctx.jobs.ledger(ctx.areaId, key, firm > since ? firm : since, through, 'provisional', ctx.now);
  };
  const last = rows[rows.length - 1];
  if (outcome.kind === 'done') complete(today);
  else if (
    (outcome.kind === 'continue' || outcome.kind === 'split-space') &&
    outcome.proven &&
    outcome.proven > since
  ) {
    complete(outcome.proven);
  } else if (last && (outcome.kind === 'split-space' || outcome.kind === 'split-types')) {
    ctx.jobs.ledger(ctx.areaId, key, since, localDayOf(last.utcMs, zone), 'saturated', ctx.now);
  }
}
