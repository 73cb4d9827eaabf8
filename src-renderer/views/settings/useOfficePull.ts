/**
 * The office pull as it runs, from officePullProgress events (any pull: the section's, a join's,
 * the periodic one), and its Cancel (cancelOfficePull). A problem cancelling goes to `onProblem`;
 * `onEnd` hears each pull's end (the section reads the status again: a join cancelled mid-pull
 * is joined all the same, its replica waiting for the next pull).
 */
import { useState } from 'react';
import type { OfficePullProgress } from '../../../src-shared/officeCalls';
import type { Client } from '../../bridge/client';
import { useEngineEvent } from '../../bridge/useEngineEvent';
import { errorText } from '../../text/errorText';

export function useOfficePull(client: Client, onProblem: (text: string) => void, onEnd: () => void) {
  const [progress, setProgress] = useState<OfficePullProgress | null>(null);
  const [cancelling, setCancelling] = useState(false);
  useEngineEvent(client, ['officePullProgress'], ({ state, rows, total }) => {
    setProgress({ state, rows, total });
    if (state === 'running') return;
    setCancelling(false);
    onEnd();
  });
  const cancel = () => {
    setCancelling(true);
    client.call('cancelOfficePull', {}).then(
      ({ cancelled }) => {
        if (!cancelled) setCancelling(false);
      },
      (e: unknown) => {
        setCancelling(false);
        onProblem(errorText(e));
      },
    );
  };
  return { progress, cancelling, cancel };
}
