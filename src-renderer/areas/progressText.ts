/**
 * A sync's progress and plan in words: the state, requests done of planned, what changed, the time
 * left, a wait counted down, and what a sync will cost before it starts. Pure.
 */
import type { SyncPlan, SyncState } from '../../src-shared/sync';
import type { SyncProgress } from '../workspace/activity';
import { count } from '../text/count';
import { waitText } from '../text/errorText';

export const STATE_WORDS: Record<SyncState, string> = {
  planning: 'Planning',
  running: 'Syncing',
  'waiting-rate': 'Waiting for the rate limit',
  offline: 'Offline — waiting to retry',
  retrying: 'Retrying after an error',
  done: 'Up to date',
  failed: 'Failed',
  paused: 'Stopped',
};

export const isFinished = (state: SyncState): boolean =>
  state === 'done' || state === 'failed' || state === 'paused';

/** "about 40 s left", "about 3 min left", "about 1 h 20 min left". */
export function etaText(seconds: number | null): string | null {
  if (seconds === null || !Number.isFinite(seconds)) return null;
  if (seconds <= 5) return 'a few seconds left';
  if (seconds < 60) return `about ${Math.round(seconds)} s left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min left`;
  return `about ${Math.floor(minutes / 60)} h ${minutes % 60} min left`;
}

/** "under a minute", "about 12 min", "about 2 h 5 min". */
export function minutesText(minutes: number): string {
  if (minutes < 1) return 'under a minute';
  const m = Math.ceil(minutes);
  if (m < 60) return `about ${m} min`;
  return `about ${Math.floor(m / 60)} h ${m % 60} min`;
}

export function requestsText(done: number, planned: number): string {
  return `${count(done)} of ${count(Math.max(planned, done))} requests`;
}

export function changesText(p: Pick<SyncProgress, 'new' | 'updated' | 'removed'>): string {
  return `${count(p.new)} new, ${count(p.updated)} updated, ${count(p.removed)} removed`;
}

/** Fraction done, 0..1 (planned can grow as busy tiles are split). */
export function fractionDone(p: Pick<SyncProgress, 'done' | 'planned' | 'state'>): number {
  if (p.state === 'done') return 1;
  return p.planned > 0 ? Math.min(1, p.done / p.planned) : 0;
}

/** Seconds until `retryAt`, for waits counted down on screen. */
export function secondsUntil(retryAt: number | undefined, now: number): number | null {
  return retryAt === undefined ? null : Math.max(0, Math.ceil((retryAt - now) / 1000));
}

/** The line under the bar: the state's own words, a countdown for waits, then the figures. */
export function progressLine(p: SyncProgress, now: number): string {
  const parts: string[] = [];
  const wait = secondsUntil(p.retryAt, now);
  if (p.state === 'waiting-rate' && wait !== null) {
    const why = p.message && /plan/i.test(p.message) ? 'plan' : 'server';
    parts.push(waitText(wait, why));
  } else if ((p.state === 'offline' || p.state === 'retrying') && wait !== null) {
    parts.push(`${STATE_WORDS[p.state]} in ${Math.max(1, wait)} s`);
  } else if (p.state === 'planning' && p.message) {
    parts.push(p.message); // e.g. waiting for an import to be saved before it starts
  } else {
    parts.push(STATE_WORDS[p.state]);
  }
  parts.push(requestsText(p.done, p.planned), changesText(p));
  if (!isFinished(p.state)) {
    const eta = etaText(p.etaSeconds);
    if (eta) parts.push(eta);
  }
  return parts.join(' · ');
}

/** What a sync of one area (or all) will cost, before it starts. */
export function planText(plan: SyncPlan, areaId?: number): { summary: string; detail: string } {
  const item = areaId === undefined ? undefined : plan.areas.find((a) => a.areaId === areaId);
  const requests = item?.requests ?? plan.requests;
  const minutes = item?.minutes ?? plan.minutes;
  const atLeast = item?.basis === 'minimum' ? 'At least ' : 'About ';
  const summary = `${atLeast}${count(requests)} ${requests === 1 ? 'request' : 'requests'} — ${minutesText(minutes)} at your plan's ${count(plan.ratePerMinute)} requests a minute.`;
  const kind =
    item?.kind === 'backfill'
      ? 'First sync: the whole data window of your plan.'
      : item?.kind === 'refresh'
        ? 'Refresh: the latest days again, to catch late reports, amendments and removals.'
        : '';
  const basis =
    item?.basis === 'minimum'
      ? ' Blotter knows nothing of this place yet, so this is the least it can take; busy places need more.'
      : item?.basis === 'local-data'
        ? ' Estimated from the incidents already stored here.'
        : '';
  return { summary, detail: `${kind}${basis}`.trim() };
}
