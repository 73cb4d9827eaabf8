/**
 * "Extend offline map to this area": shown on an area's card when the engine says the areas'
 * offline streets (the extract Settings › Map downloaded) do not reach it (getBasemapCoverage's
 * offerExtend, the area not covered). First the estimate (tiles, size, free space — the same words
 * as Settings), then the download rebuilds the extract for every area, keeping the tiles of the same
 * source build it already has. A source that changed since is "a new version": the offer says so
 * and rebuilds it whole ("Start over with the new version"), never mixing two builds.
 */
import { useId } from 'react';
import { useCall } from '../bridge/useCall';
import { useEngineEvent } from '../bridge/useEngineEvent';
import { BasemapProgress } from '../views/settings/BasemapProgress';
import { downloadLabel } from '../views/settings/basemapText';
import { StreetsDownloadFixes } from '../views/settings/StreetsDownloadFixes';
import { useStreetsDownload } from '../views/settings/useStreetsDownload';
import { useWorkspace } from '../workspace/WorkspaceContext';
import styles from './areas.module.css';
import { offerEstimateText } from './streetsOfferText';

export type StreetsOfferProps = { areaId: number };

export function StreetsOffer({ areaId }: StreetsOfferProps) {
  const { client } = useWorkspace();
  const headingId = useId();
  const flow = useStreetsDownload(client);
  const coverage = useCall(() => client.call('getBasemapCoverage', {}), [client, areaId]);
  // Asked again when a download ends or the settings change (another source, another extract).
  useEngineEvent(client, ['basemapProgress', 'settingsChanged'], (event) => {
    if (event.type === 'settingsChanged' || event.state !== 'running') coverage.reload();
  });

  const mine = coverage.data?.areas.find((a) => a.areaId === areaId);
  const offered = !!coverage.data?.offerExtend && mine?.covered === false;
  const { estimate, problem, busy, started } = flow;
  const shown = started ? flow.progress : null;
  if (!offered && !shown) return null;
  const changed = !!estimate?.newVersion || !!problem?.newVersion;

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
            <button type="button" className="button" disabled={busy} onClick={() => void flow.ask()}>
              Extend offline map to this area
            </button>
          ) : (
            <>
              <button
                type="button"
                className="button primary"
                disabled={busy}
                onClick={() => void flow.start(changed)}
              >
                {downloadLabel(estimate, changed)}
              </button>
              <button type="button" className="button" disabled={busy} onClick={flow.clearEstimate}>
                Not now
              </button>
            </>
          )}
          {problem?.newVersion && estimate === null ? (
            <button type="button" className="button" disabled={busy} onClick={() => void flow.start(true)}>
              Start over with the new version
            </button>
          ) : null}
        </div>
      ) : null}
      {shown ? (
        <BasemapProgress progress={shown} label="Offline streets download" testId="streets-offer-progress">
          <StreetsDownloadFixes flow={flow} />
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
