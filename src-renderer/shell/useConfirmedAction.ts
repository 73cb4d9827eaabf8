/**
 * The state of a confirmed action run from a ConfirmDialog: busy while it runs, and its failure in
 * words (the dialog stays open to show it, and the action can be tried again).
 */
import { useState } from 'react';
import { errorText } from '../text/errorText';

export function useConfirmedAction(action: () => Promise<void>): {
  busy: boolean;
  problem: string | null;
  run: () => void;
} {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const run = () => {
    setBusy(true);
    setProblem(null);
    action().catch((failure: unknown) => {
      setProblem(errorText(failure));
      setBusy(false);
    });
  };
  return { busy, problem, run };
}
