/**
 * The status bar's words: whether the API can be reached, what the syncs are doing (with a wait
 * counted down), and the latest sync failure with what to do about it. Pure.
 */
import { apiProblem, type Problem } from '../text/errorText';
import {
  changesText,
  etaText,
  isFinished,
  requestsText,
  secondsUntil,
  STATE_WORDS,
} from '../areas/progressText';
import { count } from '../text/count';
import { waitText } from '../text/errorText';
import type { Link, SyncProgress } from './activity';

export type LinkStatus = { state: 'online' | 'offline' | 'unknown'; text: string; detail?: string };

export function linkStatus(link: Link): LinkStatus {
  if (link.online === null) return { state: 'unknown', text: 'Network: not checked yet' };
  if (link.online)
    return { state: 'online', text: 'Online', ...(link.message ? { detail: link.message } : {}) };
  return {
    state: 'offline',
    text: 'Offline — showing the local archive',
    detail: link.message ?? 'Blotter cannot reach the API.',
  };
}

const nameOf = (names: ReadonlyMap<number, string>, id: number): string => names.get(id) ?? `area ${id}`;

/** One line for the syncs under way, or null when none is. */
export function syncSummary(
  progress: ReadonlyMap<number, SyncProgress>,
  names: ReadonlyMap<number, string>,
  now: number,
): string | null {
  const runs = [...progress.values()].filter((p) => !isFinished(p.state));
  if (runs.length === 0) return null;
  const waiting = runs.find((p) => p.state === 'waiting-rate' && p.retryAt !== undefined);
  const wait = waiting ? secondsUntil(waiting.retryAt, now) : null;
  if (waiting && wait !== null && wait > 0)
    return waitText(wait, waiting.message && /plan/i.test(waiting.message) ? 'plan' : 'server');
  if (runs.length === 1) {
    const p = runs[0] as SyncProgress;
    const eta = etaText(p.etaSeconds);
    const state = p.state === 'planning' && p.message ? p.message : STATE_WORDS[p.state];
    const words =
      p.state === 'running'
        ? `Syncing ${nameOf(names, p.areaId)}`
        : `${nameOf(names, p.areaId)}: ${state.toLowerCase()}`;
    return [words, requestsText(p.done, p.planned), eta].filter(Boolean).join(' · ');
  }
  const done = runs.reduce((n, p) => n + p.done, 0);
  const planned = runs.reduce((n, p) => n + Math.max(p.planned, p.done), 0);
  return `Syncing ${count(runs.length)} areas · ${requestsText(done, planned)}`;
}

/** The latest sync that ended in failure (and not since retried), with its problem in plain words. */
export function latestFailure(
  progress: ReadonlyMap<number, SyncProgress>,
  names: ReadonlyMap<number, string>,
): { area: string; problem: Problem } | null {
  const failed = [...progress.values()].filter((p) => p.state === 'failed').pop();
  if (!failed) return null;
  const problem = failed.error
    ? apiProblem(failed.error.code, failed.error.message)
    : apiProblem('internal', failed.message);
  return { area: nameOf(names, failed.areaId), problem };
}

/** The last finished sync in a few words ("Denver synced: 12 new, 0 updated, 0 removed"), or null. */
export function lastOutcome(progress: ReadonlyMap<number, SyncProgress>, names: ReadonlyMap<number, string>) {
  const done = [...progress.values()].filter((p) => p.state === 'done').pop();
  return done ? `${nameOf(names, done.areaId)} synced: ${changesText(done)}` : null;
}
