/**
 * The offline streets' download, one flow for its two places — Settings › Map ("Streets for my
 * areas, offline", AreasDownload.tsx) and an area's card ("Extend offline map to this area",
 * areas/StreetsOffer.tsx): the estimate, Download (or start over with a source's new version), the
 * progress from `basemapProgress` events, Cancel, and a problem in words. A conflict while nothing
 * runs whose words say the source changed is "a new version" (an unfinished download of another
 * build), offered as a start over. `sourceInput` gives the source to send (Settings stores the typed
 * URL first), `{}` for the folder's own, or null to stop (the caller said why).
 */
import { useState } from 'react';
import type { BasemapEstimate, BasemapProgressFields } from '../../../src-shared/basemap';
import { BridgeCallError, type Client } from '../../bridge/client';
import { useEngineEvent } from '../../bridge/useEngineEvent';
import { errorText } from '../../text/errorText';

export type DownloadProblem = { text: string; newVersion: boolean };
type SourceInput = { source?: string };

export type StreetsDownload = {
  estimate: BasemapEstimate | null;
  /** Forgets the estimate (the source changed, or "Not now"). */
  clearEstimate: () => void;
  progress: BasemapProgressFields | null;
  running: boolean;
  /** A download was started here and the engine took it. */
  started: boolean;
  problem: DownloadProblem | null;
  busy: boolean;
  ask: () => Promise<void>;
  start: (startOver: boolean) => Promise<void>;
  cancel: () => void;
};

export function problemOf(failure: unknown, running: boolean): DownloadProblem {
  const text = errorText(failure);
  const conflict = failure instanceof BridgeCallError && failure.code === 'conflict' && !running;
  return { text, newVersion: conflict && /source changed|new version/i.test(text) };
}

export function useStreetsDownload(
  client: Client,
  sourceInput: () => Promise<SourceInput | null> = async () => ({}),
): StreetsDownload {
  const [estimate, setEstimate] = useState<BasemapEstimate | null>(null);
  const [progress, setProgress] = useState<BasemapProgressFields | null>(null);
  const [started, setStarted] = useState(false);
  const [problem, setProblem] = useState<DownloadProblem | null>(null);
  const [busy, setBusy] = useState(false);
  useEngineEvent(client, ['basemapProgress'], setProgress);
  const running = progress?.state === 'running';

  const attempt = async (call: (input: SourceInput) => Promise<BasemapEstimate>, starting: boolean) => {
    setProblem(null);
    setBusy(true);
    try {
      const input = await sourceInput();
      if (!input) return;
      if (starting) {
        setProgress(null);
        setStarted(true);
      }
      setEstimate(await call(input));
    } catch (failure) {
      if (starting) setStarted(false);
      setProblem(problemOf(failure, running));
    } finally {
      setBusy(false);
    }
  };

  return {
    estimate,
    clearEstimate: () => setEstimate(null),
    progress,
    running,
    started,
    problem,
    busy,
    ask: () => attempt((input) => client.call('estimateBasemapDownload', input), false),
    start: (startOver) =>
      attempt(
        (input) =>
          client.call('startBasemapDownload', { ...input, ...(startOver ? { startOver: true } : {}) }),
        true,
      ),
    cancel: () => void client.call('cancelBasemapDownload', {}).catch(() => undefined),
  };
}
