/**
 * The map's counts call asked every 100 ms through a web page, not waiting for the previous answer:
 * countIncidents of the filter bar's filters without their types (src-renderer/filters/countsCall.ts),
 * the filters changing each time (the analyst's clicks of filterScenarios.ts, those needing no area
 * id or dates). Each wait is filed under the step that was running when it was asked.
 */
import type { Filters } from '../../src-shared/filters';
import type { CountResult } from '../../src-shared/incidentQueries';
import { filterSequence } from './filterScenarios';
import type { WebPage } from './webClient';

export type Wait<S extends string = string> = {
  step: S;
  ms: number;
  /** The engine's own time for the count (computedMs), when it said. */
  computedMs?: number;
  updating: boolean;
};

const POLL_MS = 100;

/** The map's filters, each different from the one before it. */
export const MAP_FILTERS: Filters[] = filterSequence(0, '2026-01-01')
  .filter((f) => !f.from && !(f.area && 'areaId' in f.area))
  .map(({ types: _types, ...rest }) => rest)
  .filter((f, k, all) => k === 0 || JSON.stringify(f) !== JSON.stringify(all[k - 1]));

export function countsPoller<S extends string>(page: WebPage, stepNow: () => S) {
  const waits: Wait<S>[] = [];
  const pending = new Set<Promise<void>>();
  let k = 0;
  let settle: { since: number; resolve: (answer: CountResult | null) => void } | null = null;
  const ask = (): void => {
    const filters = MAP_FILTERS[k++ % MAP_FILTERS.length]!;
    const step = stepNow();
    const t0 = performance.now();
    const p = page
      .call('countIncidents', { filters })
      .then((answer) => {
        if (!answer.ok) throw new Error(`countIncidents: ${answer.error.message}`);
        const value = answer.value as CountResult;
        waits.push({
          step,
          ms: performance.now() - t0,
          computedMs: value.computedMs,
          updating: !!value.updating,
        });
        if (settle && t0 >= settle.since && !value.updating) settle.resolve(value);
      })
      .finally(() => pending.delete(p));
    pending.add(p);
  };
  const timer = setInterval(ask, POLL_MS);
  ask();
  return {
    /** The first answer asked from now on that is not from a snapshot behind the file (null after `limitMs`). */
    settled(limitMs: number): Promise<CountResult | null> {
      return new Promise((resolve) => {
        const giveUp = setTimeout(() => resolve(null), limitMs);
        settle = {
          since: performance.now(),
          resolve: (answer) => {
            clearTimeout(giveUp);
            settle = null;
            resolve(answer);
          },
        };
      });
    },
    async stop(): Promise<Wait<S>[]> {
      clearInterval(timer);
      await Promise.all([...pending]);
      return waits;
    },
  };
}
