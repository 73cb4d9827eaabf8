/**
 * Settings → Map → "Streets for my areas, offline": the PMTiles source URL, the estimate (tiles,
 * size, free space), Download with progress (tiles, bytes, time left) and Cancel. The engine
 * extracts every area's box (+1 km), zoom 0–15, into <data>/basemap/areas.pmtiles; the map draws it
 * as soon as it lands (basemapProgress 'done').
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
import { Field } from './Field';

export type AreasDownloadProps = {
  client: Client;
  settings: SettingsView;
  onSaved: (settings: SettingsView) => void;
};

const mb = (bytes: number): string =>
  bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${Math.max(0.1, bytes / 1e6).toFixed(1)} MB`;
const count = (n: number): string => n.toLocaleString('en-US');

export function estimateText(e: BasemapEstimate): string {
  const resumed = e.resumed ? ` ${mb(e.bytesToFetch)} of it still to download (resuming).` : '';
  return (
    `About ${count(e.tiles)} tiles, ${mb(e.bytes)}, for ${e.areas} area${e.areas === 1 ? '' : 's'} ` +
    `(zoom ${e.minZoom}–${e.maxZoom}, each area plus 1 km). ${mb(e.freeBytes)} free on this disk.${resumed}`
  );
}

export function progressText(p: BasemapProgressFields): string {
  const base = `${count(p.tilesDone)} of ${count(p.tilesTotal)} tiles · ${mb(p.bytesDone)} of ${mb(p.bytesTotal)}`;
  if (p.state === 'done') return `Done: ${base}. The map now shows the streets of your areas, offline.`;
  if (p.state === 'cancelled') return `Cancelled at ${base}. Download again to resume.`;
  if (p.state === 'failed') return p.message ?? 'The download failed.';
  const left = p.secondsLeft !== null ? ` · about ${Math.max(1, Math.ceil(p.secondsLeft))} s left` : '';
  return `${base}${left}`;
}

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
            onClick={() => void act('start')}
          >
            Download
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
        </p>
      ) : null}
      {progress ? (
        <div role="status" data-testid="basemap-download-progress">
          {progress.state === 'running' ? (
            <progress
              max={Math.max(1, progress.tilesTotal)}
              value={progress.tilesDone}
              aria-label="Basemap download"
            />
          ) : null}
          <p className={progress.state === 'failed' ? 'message message-error' : 'muted'}>
            {progressText(progress)}
          </p>
        </div>
      ) : null}
      {problem ? (
        <p className="message message-error" role="alert">
          {problem}
        </p>
      ) : null}
    </section>
  );
}
