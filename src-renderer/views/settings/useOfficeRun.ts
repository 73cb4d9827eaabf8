/**
 * The Office section's actions: one at a time (`busy`), what the last one did in words (`notice`) or
 * what went wrong (`problem`; a cancelled choice says nothing). A join refused because this folder
 * holds an archive of its own is an offer instead — seed an empty office, or give way to it —
 * handed to `onOffer`.
 */
import { useCallback, useState } from 'react';
import { BridgeCallError } from '../../bridge/client';
import { errorText } from '../../text/errorText';

/** What the folder's own archive may do when joining: seed an empty office, or give way. */
export type Offer = { seed: boolean; message: string };

export type OfficeRun = {
  busy: boolean;
  notice: string | null;
  problem: string | null;
  setNotice: (text: string | null) => void;
  setProblem: (text: string | null) => void;
  run: (work: () => Promise<void>, onOffer?: (offer: Offer) => void) => Promise<void>;
};

export function useOfficeRun(): OfficeRun {
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const run = useCallback(async (work: () => Promise<void>, onOffer?: (offer: Offer) => void) => {
    setBusy(true);
    setProblem(null);
    setNotice(null);
    try {
      await work();
    } catch (e) {
      if (e instanceof BridgeCallError && e.code === 'cancelled') return;
      // An upload's failure (export/upload.ts) says its own words; the engine's come as BridgeCallError.
      const text = e instanceof BridgeCallError || !(e instanceof Error) ? errorText(e) : e.message;
      if (onOffer && /holds \d+ incidents and \d+ areas of its own/.test(text))
        onOffer({ seed: /office is empty/.test(text), message: text });
      else setProblem(text);
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, notice, problem, setNotice, setProblem, run };
}
