/**
 * One analysis run at a time for the Analysis view: starts the call with a job id of its own,
 * follows its analysisProgress events (fraction), cancels by that id, and keeps the answer or the
 * error in words. A newer run replaces an older one's answer.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CallInput, CallName, CallOutput } from '../../src-shared/contract';
import { errorText } from '../text/errorText';
import type { Client } from '../bridge/client';

export type AnalysisCall =
  'analyzeHotSpots' | 'analyzeKde' | 'analyzeNearRepeat' | 'analyzeRepeatLocations' | 'analyzeCompStat';

export type RunState = {
  running: boolean;
  fraction: number;
  error: string | null;
  result: { call: AnalysisCall; value: CallOutput<AnalysisCall> } | null;
};

const IDLE: RunState = { running: false, fraction: 0, error: null, result: null };

export function useAnalysisRun(client: Client) {
  const [state, setState] = useState<RunState>(IDLE);
  const job = useRef<string | null>(null);

  useEffect(
    () =>
      client.onEvent((e) => {
        if (e.type === 'analysisProgress' && e.jobId === job.current && e.state === 'running')
          setState((s) => ({ ...s, fraction: e.fraction }));
      }),
    [client],
  );

  const run = useCallback(
    async <K extends AnalysisCall & CallName>(call: K, input: Omit<CallInput<K>, 'jobId'>) => {
      const jobId = `ui-${Math.random().toString(36).slice(2, 10)}`;
      job.current = jobId;
      setState((s) => ({ ...s, running: true, fraction: 0, error: null }));
      try {
        const value = (await client.call(call, {
          ...input,
          jobId,
        } as CallInput<K>)) as CallOutput<AnalysisCall>;
        if (job.current === jobId)
          setState({ running: false, fraction: 1, error: null, result: { call, value } });
      } catch (failure) {
        if (job.current === jobId)
          setState({ running: false, fraction: 0, error: errorText(failure), result: null });
      }
    },
    [client],
  );

  const cancel = useCallback(() => {
    if (job.current) void client.call('cancelAnalysis', { jobId: job.current }).catch(() => undefined);
  }, [client]);

  return { state, run, cancel };
}
