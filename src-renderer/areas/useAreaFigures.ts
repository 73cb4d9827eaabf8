/**
 * An area's incident count (all history) and coverage band, re-read whenever the archive changes
 * and whenever the area's sync moves (a request done, a state reached — its end above all): a sync
 * writes its coverage ledger in commits that may change no incident (an empty area, incidents an
 * older area already holds, the run's final ledger), so the data version alone left the card at
 * "91 missing" after a first sync until a reload. Sync steps are followed at most once a second,
 * and the last step is always read.
 */
import { useEffect, useRef, useState } from 'react';
import type { CoverageResult } from '../../src-shared/incidentQueries';
import { useCurrentEffect } from '../bridge/useCall';
import { errorText } from '../text/errorText';
import { useWorkspace } from '../workspace/WorkspaceContext';

export type AreaFigures = { incidents: number | null; coverage: CoverageResult | null; error: string | null };

/** How often a running sync's steps re-read the figures, at most. */
const SYNC_STEP_MS = 1000;

/** `value`, changing at most once every `ms` (the first change at once, the latest always in the end). */
function useThrottled<T>(value: T, ms: number): T {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    if (Object.is(value, shown)) return;
    const apply = () => {
      last.current = Date.now();
      setShown(value);
    };
    const wait = last.current + ms - Date.now();
    if (wait <= 0) {
      apply();
      return;
    }
    const timer = setTimeout(apply, wait);
    return () => clearTimeout(timer);
  }, [value, shown, ms]);
  return shown;
}

export function useAreaFigures(areaId: number): AreaFigures {
  const { client, activity } = useWorkspace();
  const [figures, setFigures] = useState<AreaFigures>({ incidents: null, coverage: null, error: null });
  const progress = activity.progress.get(areaId);
  const syncStep = useThrottled(
    progress ? `${progress.runId}:${progress.state}:${progress.done}` : '',
    SYNC_STEP_MS,
  );
  useCurrentEffect(
    (current) => {
      Promise.all([
        client.call('countIncidents', { filters: { preset: 'all', area: { areaId } } }),
        client.call('coverageBand', { areaId }),
      ]).then(
        ([counts, coverage]) => {
          if (current()) setFigures({ incidents: counts.total, coverage, error: null });
        },
        (failure: unknown) => {
          if (current()) setFigures((f) => ({ ...f, error: errorText(failure) }));
        },
      );
    },
    [client, areaId, activity.dataVersion, syncStep],
  );
  return figures;
}
