/**
 * A sync that asks first: what it will take (a plan call, asked once per area), then, once the user
 * confirms, the start call — its problem said where the confirmation is, reported to the status bar,
 * and the button free again. For PlanConfirm (planSync) and HistoryConfirm (planHistory).
 */
import { useRef, useState } from 'react';
import type { Client } from '../bridge/client';
import { useCurrentEffect } from '../bridge/useCall';
import { problemOf, type Problem } from '../text/errorText';
import { useWorkspace } from '../workspace/WorkspaceContext';

export type PlannedStart<P> = {
  plan: P | null;
  problem: Problem | null;
  starting: boolean;
  start: () => void;
};

export function usePlannedStart<P>(
  areaId: number,
  calls: { plan: (client: Client) => Promise<P>; start: (client: Client) => Promise<unknown> },
  onDone: () => void,
): PlannedStart<P> {
  const { client, reportCall } = useWorkspace();
  const [plan, setPlan] = useState<P | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [starting, setStarting] = useState(false);
  const callsRef = useRef(calls);
  callsRef.current = calls;

  useCurrentEffect(
    (current) => {
      callsRef.current.plan(client).then(
        (answer) => {
          if (current()) setPlan(answer);
        },
        (failure: unknown) => {
          if (current()) setProblem(problemOf(failure));
        },
      );
    },
    [client, areaId],
  );

  const start = () => {
    setStarting(true);
    setProblem(null);
    callsRef.current.start(client).then(
      () => onDone(),
      (failure: unknown) => {
        reportCall(failure);
        setProblem(problemOf(failure));
        setStarting(false);
      },
    );
  };

  return { plan, problem, starting, start };
}
