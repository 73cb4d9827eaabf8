/** An area's incident count (all history) and coverage band, re-read whenever the archive changes. */
import { useEffect, useState } from 'react';
import type { CoverageResult } from '../../src-shared/incidentQueries';
import { errorText } from '../text/errorText';
import { useWorkspace } from '../workspace/WorkspaceContext';

export type AreaFigures = { incidents: number | null; coverage: CoverageResult | null; error: string | null };

export function useAreaFigures(areaId: number): AreaFigures {
  const { client, activity } = useWorkspace();
  const [figures, setFigures] = useState<AreaFigures>({ incidents: null, coverage: null, error: null });
  useEffect(() => {
    let cancelled = false;
    Promise.all([
      client.call('countIncidents', { filters: { preset: 'all', area: { areaId } } }),
      client.call('coverageBand', { areaId }),
    ]).then(
      ([counts, coverage]) => {
        if (!cancelled) setFigures({ incidents: counts.total, coverage, error: null });
      },
      (failure: unknown) => {
        if (!cancelled) setFigures((f) => ({ ...f, error: errorText(failure) }));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [client, areaId, activity.dataVersion]);
  return figures;
}
