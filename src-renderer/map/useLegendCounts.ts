/**
 * The legend's counts: incidents per type under the current filters (countIncidents, answered from
 * the engine's snapshot — fast, so the legend follows a filter change before the map redraws).
 * Records how long each filter change took to reach the counts.
 */
import { useEffect, useRef, useState } from 'react';
import type { Filters } from '../../src-shared/filters';
import type { Client } from '../bridge/client';
import { perf, record } from './perf';

export type LegendCounts = { byType: Record<string, number> | null; total: number | null };

export function useLegendCounts(client: Client, filters: Filters, dataVersion: number): LegendCounts {
  const [counts, setCounts] = useState<LegendCounts>({ byType: null, total: null });
  const seq = useRef(0);
  const key = JSON.stringify(filters);

  useEffect(() => {
    const mine = ++seq.current;
    const changedAt = perf().filterChangedAt ?? performance.now();
    client.call('countIncidents', { filters: JSON.parse(key) as Filters }).then(
      (answer) => {
        if (mine !== seq.current) return;
        setCounts({ byType: answer.byType, total: answer.total });
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
  }, [client, key, dataVersion]);

  return counts;
}
