/**
 * An office pull's officePullProgress events (src-shared/officeCalls.ts): rows taken of about the
 * total, at most every PROGRESS_EVERY_MS while it runs, and always its end (done, failed, cancelled).
 */
import type { EngineEvent } from '../../../src-shared/contract';
import type { OfficePullProgress } from '../../../src-shared/officeCalls';

/** How often a running pull says how far it got. */
export const PROGRESS_EVERY_MS = 200;

export function pullProgress(emit: (event: EngineEvent) => void, now: () => number = Date.now) {
  let rows = 0;
  let total: number | null = null;
  let last = -Infinity;
  const send = (state: OfficePullProgress['state']) =>
    emit({ type: 'officePullProgress', state, rows, total });
  return {
    /** The pull's `onProgress`: sent when PROGRESS_EVERY_MS passed since the last event. */
    running(taken: number, expected: number): void {
      rows = taken;
      total = expected;
      const at = now();
      if (at - last < PROGRESS_EVERY_MS) return;
      last = at;
      send('running');
    },
    end(state: Exclude<OfficePullProgress['state'], 'running'>): void {
      send(state);
    },
  };
}
