/**
 * "Extend offline map to this area": shown on an area's card when the engine says the areas'
 * offline streets (the extract Settings › Map downloaded) do not reach it (getBasemapCoverage's
 * offerExtend, the area not covered). First the estimate (tiles, size, free space — the same words
 * as Settings), then the download rebuilds the extract for every area, keeping the tiles of the same
 * source build it already has. A source that changed since is "a new version": the offer says so
 * and rebuilds it whole ("Start over with the new version"), never mixing two builds.
 */
import { useEffect, useId, useState } from 'react';
import type { BasemapCoverage, BasemapEstimate, BasemapProgressFields } from '../../src-shared/basemap';
import { BridgeCallError } from '../bridge/client';
import { errorText } from '../text/errorText';
import { BasemapProgress } from '../views/settings/BasemapProgress';
import { downloadLabel } from '../views/settings/basemapText';
import { useWorkspace } from '../workspace/WorkspaceContext';
import styles from './areas.module.css';
import { offerEstimateText } from './streetsOfferText';

export type StreetsOfferProps = { areaId: number };

type Problem = { text: string; newVersion: boolean };

export function StreetsOffer({ areaId }: StreetsOfferProps) {
  const { client } = useWorkspace();
  const headingId = useId();
  const [coverage, setCoverage] = useState<BasemapCoverage | null>(null);
  const [asked, setAsked] = useState(0);
  const [estimate, setEstimate] = useState<BasemapEstimate | null>(null);
  const [progress, setProgress] = useState<BasemapProgressFields | null>(null);
  const [started, setStarted] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let cancelled = false;
    client.call('getBasemapCoverage', {}).then(
      (answer) => !cancelled && setCoverage(answer),
      () => !cancelled && setCoverage(null),
    );
    return () => {
      cancelled = true;
    };
  }, [client, areaId, asked]);

  useEffect(
    () =>
      client.onEvent((event) => {
        if (event.type === 'basemapProgress') {
          setProgress(event);
          if (event.state !== 'running') setAsked((n) => n + 1);
        } else if (event.type === 'settingsChanged') setAsked((n) => n + 1);
      }),
    [client],
  );

  const mine = coverage?.areas.find((a) => a.areaId === areaId);
  const offered = !!coverage?.offerExtend && mine?.covered === false;
  const shown = started ? progress : null;
  if (!offered && !shown) return null;
  const running = progress?.state === 'running';
  const changed = !!estimate?.newVersion || !!problem?.newVersion;

  const fail = (failure: unknown) => {
    const text = errorText(failure);
    // A conflict here is "the source changed" (an unfinished download of another build).
    const newVersion = failure instanceof BridgeCallError && failure.code === 'conflict' && !running;
    setProblem({ text, newVersion: newVersion && /source changed|new version/i.test(text) });
  };

  const ask = async () => {
    setProblem(null);
    setBusy(true);
    try {
      setEstimate(await client.call('estimateBasemapDownload', {}));
    } catch (failure) {
      fail(failure);
    } finally {
      setBusy(false);
    }
  };

  const start = async (startOver: boolean) => {
    setProblem(null);
    setBusy(true);
    setProgress(null);
    setStarted(true);
    try {
      setEstimate(await client.call('startBasemapDownload', startOver ? { startOver: true } : {}));
    } catch (failure) {
      setStarted(false);
      fail(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={styles.streetsOffer} aria-labelledby={headingId} data-testid="streets-offer">
      <h3 id={headingId} className={styles.streetsOfferHead}>
        Offline streets
      </h3>
      {offered && !started ? (
        <p className="muted">
          Your offline map does not reach this area yet. Extending it downloads the streets here (plus 1 km)
          and rebuilds the map for all your areas.
        </p>
      ) : null}
      {estimate && !started ? (
        <p className="muted" data-testid="streets-offer-estimate">
          {offerEstimateText(estimate)}
        </p>
      ) : null}
      {offered && !started ? (
        <div className="actions">
          {estimate === null ? (
            <button type="button" className="button" disabled={busy} onClick={() => void ask()}>
              Extend offline map to this area
            </button>
          ) : (
            <>
              <button
                type="button"
                className="button primary"
                disabled={busy}
                onClick={() => void start(changed)}
              >
                {downloadLabel(estimate, changed)}
              </button>
              <button type="button" className="button" disabled={busy} onClick={() => setEstimate(null)}>
                Not now
              </button>
            </>
          )}
          {problem?.newVersion && estimate === null ? (
            <button type="button" className="button" disabled={busy} onClick={() => void start(true)}>
              Start over with the new version
            </button>
          ) : null}
        </div>
      ) : null}
      {shown ? (
        <BasemapProgress progress={shown} label="Offline streets download" testId="streets-offer-progress">
          {shown.state === 'running' ? (
            <button
              type="button"
              className="button"
              onClick={() => void client.call('cancelBasemapDownload', {}).catch(() => undefined)}
            >
              Cancel download
            </button>
          ) : null}
          {shown.state === 'failed' && shown.problem === 'source_changed' ? (
            <button type="button" className="button" disabled={busy} onClick={() => void start(true)}>
              Start over with the new version
            </button>
          ) : null}
        </BasemapProgress>
      ) : null}
      {problem ? (
        <p className="message message-error" role="alert">
          {problem.text}
        </p>
      ) : null}
    </section>
  );
}
