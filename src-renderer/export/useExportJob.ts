/**
 * One export at a time from the Export view: start it, follow its exportProgress events (they may
 * arrive before startExport answers, so every job's latest event is kept), cancel it.
 */
import { useCallback, useRef, useState } from 'react';
import type { StartExportInput } from '../../src-shared/exports';
import { BridgeCallError, type Client } from '../bridge/client';
import { useEngineEvent } from '../bridge/useEngineEvent';
import { errorText } from '../text/errorText';
import type { ExportEvent } from './exportText';

export type ExportJobState = {
  jobId: string | null;
  fileName: string | null;
  event: ExportEvent | null;
  starting: boolean;
  error: string | null;
};

const IDLE: ExportJobState = { jobId: null, fileName: null, event: null, starting: false, error: null };

export function useExportJob(client: Client) {
  const [state, setState] = useState<ExportJobState>(IDLE);
  const latest = useRef(new Map<string, ExportEvent>());
  const current = useRef<string | null>(null);

  useEngineEvent(client, ['exportProgress'], (event) => {
    latest.current.set(event.jobId, event);
    if (event.jobId === current.current) setState((s) => ({ ...s, event }));
  });

  const start = useCallback(
    async (input: StartExportInput) => {
      setState({ ...IDLE, starting: true });
      try {
        const { jobId, fileName } = await client.call('startExport', input);
        current.current = jobId;
        setState({ jobId, fileName, event: latest.current.get(jobId) ?? null, starting: false, error: null });
      } catch (failure) {
        // The user closing the save dialog is not an error.
        const quiet = failure instanceof BridgeCallError && failure.code === 'cancelled';
        setState({ ...IDLE, error: quiet ? null : errorText(failure) });
      }
    },
    [client],
  );

  const cancel = useCallback(async () => {
    if (!current.current) return;
    try {
      await client.call('cancelExport', { jobId: current.current });
    } catch (failure) {
      setState((s) => ({ ...s, error: errorText(failure) }));
    }
  }, [client]);

  const reset = useCallback(() => {
    current.current = null;
    setState(IDLE);
  }, []);

  const running =
    state.starting ||
    state.event?.state === 'running' ||
    state.event?.state === 'printing' ||
    (state.jobId !== null && state.event === null);
  return { ...state, running, start, cancel, reset };
}
