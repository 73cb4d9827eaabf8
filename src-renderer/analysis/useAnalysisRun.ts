/**
 * One analysis run at a time for the Analysis view: starts the call with a job id of its own,
 * follows its analysisProgress events (fraction), cancels by that id, and keeps the answer or the
 * error in words — in the workspace's analysis session (analysisSession.ts), so the answer stays
 * when the view is left and opened again. A newer run replaces an older one's answer.
 */
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type { CallInput, CallName, CallOutput } from '../../src-shared/contract';
import type { Filters } from '../../src-shared/filters';
import { errorText } from '../text/errorText';
import type { Client } from '../bridge/client';
import { useEngineEvent } from '../bridge/useEngineEvent';
import { analysisSessionOf, type AnalysisCall } from './analysisSession';

export type { AnalysisCall, RunState } from './analysisSession';

export function useAnalysisRun(client: Client) {
  const session = useMemo(() => analysisSessionOf(client), [client]);
  const state = useSyncExternalStore(session.subscribe, session.get);

  useEngineEvent(client, ['analysisProgress'], (e) => {
    if (e.jobId === session.get().jobId && e.state === 'running')
      session.set((s) => ({ ...s, fraction: e.fraction }));
  });

  const run = useCallback(
    async <K extends AnalysisCall & CallName>(
      call: K,
      input: Omit<CallInput<K>, 'jobId'> & { filters: Filters },
    ) => {
      const jobId = `ui-${Math.random().toString(36).slice(2, 10)}`;
      session.set((s) => ({ ...s, running: true, fraction: 0, error: null, jobId }));
      try {
        const value = (await client.call(call, {
          ...input,
          jobId,
        } as CallInput<K>)) as CallOutput<AnalysisCall>;
        const { filters, ...rest } = input;
        session.set((s) =>
          s.jobId === jobId
            ? {
                running: false,
                fraction: 1,
                error: null,
                jobId: null,
                result: { call, value, filters, input: rest as Record<string, unknown> },
              }
            : s,
        );
      } catch (failure) {
        session.set((s) =>
          s.jobId === jobId
            ? { running: false, fraction: 0, error: errorText(failure), result: null, jobId: null }
            : s,
        );
      }
    },
    [client, session],
  );

  const cancel = useCallback(() => {
    const jobId = session.get().jobId;
    if (jobId) void client.call('cancelAnalysis', { jobId }).catch(() => undefined);
  }, [client, session]);

  return { state, run, cancel };
}
