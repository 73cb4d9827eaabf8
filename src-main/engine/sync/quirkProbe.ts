/**
 * Learning, once per base URL, what the server does with a `since` older than the plan window (the
 * spec: an empty answer; some servers: the whole window) — from the first backfill's own answers,
 * without a probe request of its own. Until it is known, a first backfill is planned as if the
 * server serves the window (the roots' since is older than the window start) and:
 *
 * - a job's first question is sent with that stale since: rows mean "serves the window" (learned;
 *   the page is the job's answer, as asked);
 * - no rows: the same job asks again with a since inside the window (safeSince); rows now mean
 *   "empty when stale" (learned). Two empty answers teach nothing (an empty circle); the job's
 *   answer is the one inside the window, as when the quirk is unknown.
 *
 * The empty stale answer is logged and counted like any request. Later runs (the area backfilled)
 * never send a stale since while the quirk is unknown.
 */
import type { Logger } from '../log';
import type { Db } from '../store/database';
import type { JobRow } from './jobStore';
import type { SyncLimits } from './planner';
import { safeSince, sendableSince, writeQuirk, type SinceBeforeWindow } from './windowStart';

type LearnerDeps = { db: Db; baseUrl: string; limits: SyncLimits; log: Logger };

export type QuirkLearner = {
  /** What to plan the run with: 'window' while it is being learned by a first backfill. */
  planned(): SinceBeforeWindow;
  /** The since to send for the job now. */
  since(job: JobRow, now: number): string;
  /** Whether an empty answer to `sent` is no answer yet (the same job asks again inside the window). */
  inconclusive(job: JobRow, sent: string, now: number): boolean;
  /** What an answer to `sent` teaches; 'retry': ask the same job again inside the window. */
  heard(job: JobRow, sent: string, rows: number, now: number): 'use' | 'retry';
};

export function createQuirkLearner(
  deps: LearnerDeps,
  initial: SinceBeforeWindow,
  firstBackfill: boolean,
): QuirkLearner {
  let quirk = initial;
  const learning = initial === 'unknown' && firstBackfill;
  const staleTried = new Set<number>();
  const safe = (now: number): string => safeSince(now, deps.limits.windowDays);
  const learned = (value: 'window' | 'empty', now: number): void => {
    quirk = value;
    writeQuirk(deps.db, deps.baseUrl, value, now);
    deps.log.info('learned how the server treats a since older than the plan window', { value });
  };
  return {
    planned: () => (learning && quirk === 'unknown' ? 'window' : quirk),
    since(job, now) {
      if (learning && quirk === 'unknown' && job.since < safe(now) && !staleTried.has(job.id)) {
        staleTried.add(job.id);
        return job.since;
      }
      return sendableSince(job.since, now, deps.limits.windowDays, quirk);
    },
    inconclusive: (_job, sent, now) => quirk === 'unknown' && sent < safe(now),
    heard(job, sent, rows, now) {
      if (quirk !== 'unknown') return 'use';
      if (sent < safe(now)) {
        if (rows > 0) {
          learned('window', now);
          return 'use';
        }
        return 'retry';
      }
      if (rows > 0 && staleTried.has(job.id)) learned('empty', now);
      return 'use';
    },
  };
}
