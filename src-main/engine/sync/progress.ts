/**
 * Progress of one area's run as the contract's syncProgress event: figures from the run row, the
 * state from what the requests are doing, an ETA from the requests left at the rate in force.
 */
import type { EngineEvent, ErrorCode } from '../../../src-shared/contract';
import type { SyncState } from '../../../src-shared/sync';
import type { ApiError } from '../api/apiError';
import type { JobStore, RunRow } from './jobStore';
import type { RateLimiter } from '../api/rateLimiter';

export type SyncProgress = Extract<EngineEvent, { type: 'syncProgress' }>;

export type ProgressReporter = {
  update(
    state: SyncState,
    extra?: { message?: string; retryAt?: number; error?: ApiError | { code: ErrorCode; message: string } },
  ): void;
  /** The last event sent. */
  readonly last: SyncProgress | null;
};

export function createProgressReporter(
  jobs: JobStore,
  runId: number,
  areaId: number,
  limiter: RateLimiter,
  emit: (p: SyncProgress) => void,
  avgLatencyMs: () => number,
  concurrency: number,
): ProgressReporter {
  let last: SyncProgress | null = null;
  let lastKey = '';
  return {
    get last() {
      return last;
    },
    update(state, extra = {}) {
      const run = jobs.run(runId) as RunRow;
      const planned = Math.max(run.done, run.done + jobs.pendingEstimate(runId));
      const left = planned - run.done;
      const byRate = (Math.max(0, left - limiter.freeSlots()) * 60) / Math.max(1, limiter.rate);
      const byLatency = (left * avgLatencyMs()) / 1000 / concurrency;
      const finished = state === 'done' || state === 'failed';
      const event: SyncProgress = {
        type: 'syncProgress',
        areaId,
        runId,
        kind: run.kind,
        state,
        planned,
        done: run.done,
        new: run.new_count,
        updated: run.updated_count,
        removed: run.removed_count,
        etaSeconds: finished ? 0 : Math.round(Math.max(byRate, byLatency)),
        ...(extra.message ? { message: extra.message } : {}),
        ...(extra.retryAt ? { retryAt: extra.retryAt } : {}),
        ...(extra.error ? { error: { code: extra.error.code, message: extra.error.message } } : {}),
      };
      const key = `${state}|${extra.message ?? ''}|${event.done}|${planned}`;
      if (key === lastKey) return;
      lastKey = key;
      last = event;
      emit(event);
    },
  };
}

const clock = (ms: number): string => new Date(ms).toLocaleTimeString('en-GB', { hour12: false });

/** Plain words for a wait. */
export function waitMessage(
  kind: 'rate' | 'retry-after',
  untilMs: number | null,
  now: number,
  rate: number,
): string {
  const seconds = untilMs === null ? null : Math.max(1, Math.ceil((untilMs - now) / 1000));
  if (kind === 'retry-after') return `Waiting ${seconds ?? '?'} s: the server asked us to slow down.`;
  return `Waiting for the plan's rate limit (${rate} requests a minute)${seconds ? `; next request in ${seconds} s` : ''}.`;
}

export function retryMessage(e: ApiError, retryAt: number, now: number): string {
  const seconds = Math.max(1, Math.round((retryAt - now) / 1000));
  return `${e.message} Retrying in ${seconds} s (at ${clock(retryAt)}).`;
}
