/**
 * The legend's counts: incidents per chosen type under the current filters, derived from the one
 * counts call the filter bar makes too (filters/countsCall.ts), so the legend and the bar always
 * agree and the engine counts once. Records how long each filter change took to reach the counts.
 */
import { useState } from 'react';
import type { Filters } from '../../src-shared/filters';
import type { Client } from '../bridge/client';
import { useCurrentEffect } from '../bridge/useCall';
import { countsFor, legendCountsOf, type LegendCounts } from '../filters/countsCall';
import { perf, record } from './perf';

export type { LegendCounts };

export function useLegendCounts(client: Client, filters: Filters, dataVersion: number): LegendCounts {
  const [counts, setCounts] = useState<LegendCounts>({ byType: null, total: null });
  const key = JSON.stringify(filters);

  useCurrentEffect(
    (current) => {
      const changedAt = perf().filterChangedAt ?? performance.now();
      const chosen = JSON.parse(key) as Filters;
      countsFor(client, chosen, dataVersion).then(
        (answer) => {
          if (!current()) return;
          setCounts(legendCountsOf(answer.byType, chosen.types));
          // Measured once the new counts are on screen (after React commits them).
          requestAnimationFrame(() => {
            const p = perf();
            if (p.filterChangedAt !== null) {
              record(p.countsUpdated, performance.now() - changedAt);
              p.filterChangedAt = null;
            }
          });
        },
        () => undefined,
      );
    },
    [client, key, dataVersion],
  );

  return counts;
}
