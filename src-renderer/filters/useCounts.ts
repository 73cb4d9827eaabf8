/**
 * Counts for the filter bar: per type under every filter but the type chips (so a chip shows what
 * choosing it would add), and the total of the chosen types. Re-queried on every filter change and
 * whenever the archive changes (the engine's incidentsChanged); a late answer to an older filter is
 * dropped. The call is the one the legend shares (countsCall.ts).
 */
import { useState } from 'react';
import type { Filters } from '../../src-shared/filters';
import type { CountResult } from '../../src-shared/incidentQueries';
import { useCurrentEffect } from '../bridge/useCall';
import { errorText } from '../text/errorText';
import { useWorkspace } from '../workspace/WorkspaceContext';
import { countsFor } from './countsCall';
import { totalOf, withoutTypes } from './filterModel';
import { useFilters } from './FiltersContext';

export type Counts = {
  /** Null until the first answer. */
  byType: Record<string, number> | null;
  total: number | null;
  range: CountResult['range'] | null;
  loading: boolean;
  error: string | null;
};

export function useCounts(): Counts {
  const { client } = useWorkspace();
  const { filters, dataVersion } = useFilters();
  const [result, setResult] = useState<CountResult | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const query = JSON.stringify(withoutTypes(filters));

  // A failure keeps the last counts and says why; an answer to older filters is dropped.
  useCurrentEffect(
    (current) => {
      setLoading(true);
      countsFor(client, JSON.parse(query) as Filters, dataVersion).then(
        (answer) => {
          if (!current()) return;
          setResult(answer);
          setError(null);
          setLoading(false);
        },
        (failure: unknown) => {
          if (!current()) return;
          setError(errorText(failure));
          setLoading(false);
        },
      );
    },
    [client, query, dataVersion],
  );

  return {
    byType: result?.byType ?? null,
    total: result ? totalOf(result.byType, filters.types) : null,
    range: result?.range ?? null,
    loading,
    error,
  };
}
