/**
 * Settings → Map → "Streets for my areas, offline": the PMTiles source URL, the estimate (tiles,
 * size, free space), Download with progress (tiles, bytes, time left) and Cancel. The engine
 * extracts every area's box (+1 km), zoom 0–15, into <data>/basemap/areas.pmtiles; the map draws it
 * as soon as it lands (basemapProgress 'done'). A source with a new version since the extract was made
 * is said with the estimate and the button starts over (the words are basemapText.ts's, as the areas' offer).
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import {
  BasemapSourceUrl,
  type BasemapEstimate,
  type BasemapProgressFields,
} from '../../../src-shared/basemap';
import type { SettingsView } from '../../../src-shared/settings';
import type { Client } from '../../bridge/client';
import { errorText } from '../../text/errorText';
import { BasemapProgress } from './BasemapProgress';
import { downloadLabel, estimateText, newVersionText } from './basemapText';
import { Field } from './Field';

export type AreasDownloadProps = {
  client: Client;
  settings: SettingsView;
  onSaved: (settings: SettingsView) => void;
};

export function AreasDownload({ client, settings, onSaved }: AreasDownloadProps) {
  const headingId = useId();
  const [source, setSource] = useState(settings.basemapSource ?? '');
  const [sourceError, setSourceError] = useState<string | undefined>();
  const [estimate, setEstimate] = useState<BasemapEstimate | null>(null);
  const [progress, setProgress] = useState<BasemapProgressFields | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(
    () =>
      client.onEvent((event) => {
        if (event.type === 'basemapProgress') setProgress(event);
      }),
    [client],
  );
  const running = progress?.state === 'running';
  // A new version of the source is rebuilt whole: the button says so and starts over.
  const fresh = estimate ? newVersionText(estimate) : null;

  /** The typed URL, stored as the folder's source; null when it is not a valid source. */
  const storedSource = async (): Promise<string | null> => {
    const parsed = BasemapSourceUrl.safeParse(source);
    if (!parsed.success) {
      setSourceError(parsed.error.issues[0]?.message);
      return null;
    }
    setSourceError(undefined);
    if (parsed.data !== settings.basemapSource) {
      onSaved(await client.call('updateSettings', { basemapSource: parsed.data }));
    }
    return parsed.data;
  };

  const act = async (what: 'estimate' | 'start' | 'startOver') => {
    setProblem(null);
    setBusy(true);
    try {
      const url = await storedSource();
      if (!url) return;
      if (what === 'estimate') {
        setEstimate(await client.call('estimateBasemapDownload', { source: url }));
      } else {
        setProgress(null);
        setEstimate(
          await client.call('startBasemapDownload', {
            source: url,
            ...(what === 'startOver' ? { startOver: true } : {}),
          }),
        );
      }
    } catch (failure) {
      setProblem(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void act('estimate');
  };

  return (
    <section aria-labelledby={headingId} data-testid="areas-download">
      <h3 id={headingId}>Streets for my areas, offline</h3>
      <p className="muted">
        Downloads the streets around every area (plus 1 km, zoom 0–15) from a PMTiles archive — a Protomaps
        build or your office’s copy — into this data folder. Used when no file or tile URL is set above.
      </p>
      <form onSubmit={submit} noValidate>
        <Field
          label="Basemap source (PMTiles URL)"
          error={sourceError}
          hint="https:// (or a loopback address), e.g. https://build.protomaps.com/20260101.pmtiles"
        >
          {(control) => (
            <input
              {...control}
              type="url"
              autoComplete="off"
              spellCheck={false}
              value={source}
              onChange={(e) => {
                setSource(e.target.value);
                setSourceError(undefined);
                setEstimate(null);
              }}
            />
          )}
        </Field>
        <div className="actions">
          <button type="submit" className="button" disabled={busy || running}>
            Estimate size
          </button>
          <button
            type="button"
            className="button primary"
            disabled={busy || running}
            onClick={() => void act(fresh ? 'startOver' : 'start')}
          >
            {downloadLabel(estimate)}
          </button>
          {running ? (
            <button
              type="button"
              className="button"
              onClick={() => void client.call('cancelBasemapDownload', {}).catch(() => undefined)}
            >
              Cancel download
            </button>
          ) : null}
          {progress?.state === 'failed' && progress.problem === 'source_changed' ? (
            <button type="button" className="button" onClick={() => void act('startOver')}>
              Start over with the new version
            </button>
          ) : null}
        </div>
      </form>
      {estimate ? (
        <p className="muted" data-testid="basemap-estimate">
          {estimateText(estimate)}
          {fresh ? ` ${fresh}` : ''}
        </p>
      ) : null}
      {progress ? (
        <BasemapProgress progress={progress} label="Basemap download" testId="basemap-download-progress" />
      ) : null}
      {problem ? (
        <p className="message message-error" role="alert">
          {problem}
        </p>
      ) : null}
    </section>
  );
}
