/**
 * Settings → Map → "Streets for my areas, offline": the PMTiles source URL, the estimate (tiles,
 * size, free space), Download with progress (tiles, bytes, time left) and Cancel. The engine
 * extracts every area's box (+1 km), zoom 0–15, into <data>/basemap/areas.pmtiles; the map draws it
 * as soon as it lands (basemapProgress 'done'). A source with a new version since the extract was made
 * is said with the estimate and the button starts over (the words are basemapText.ts's, as the areas' offer).
 */
import { useId, useState, type FormEvent } from 'react';
import { BasemapSourceUrl } from '../../../src-shared/basemap';
import type { SettingsView } from '../../../src-shared/settings';
import type { Client } from '../../bridge/client';
import { BasemapProgress } from './BasemapProgress';
import { downloadLabel, estimateText, newVersionText } from './basemapText';
import { Field } from './Field';
import { StreetsDownloadFixes } from './StreetsDownloadFixes';
import { useStreetsDownload } from './useStreetsDownload';

export type AreasDownloadProps = {
  client: Client;
  settings: SettingsView;
  onSaved: (settings: SettingsView) => void;
};

export function AreasDownload({ client, settings, onSaved }: AreasDownloadProps) {
  const headingId = useId();
  const [source, setSource] = useState(settings.basemapSource ?? '');
  const [sourceError, setSourceError] = useState<string | undefined>();

  /** The typed URL, stored as the folder's source; null when it is not a valid source. */
  const storedSource = async (): Promise<{ source: string } | null> => {
    const parsed = BasemapSourceUrl.safeParse(source);
    if (!parsed.success) {
      setSourceError(parsed.error.issues[0]?.message);
      return null;
    }
    setSourceError(undefined);
    if (parsed.data !== settings.basemapSource) {
      onSaved(await client.call('updateSettings', { basemapSource: parsed.data }));
    }
    return { source: parsed.data };
  };
  const flow = useStreetsDownload(client, storedSource);
  const { estimate, progress, problem, busy, running } = flow;
  // A new version of the source is rebuilt whole: the button says so and starts over.
  const fresh = estimate ? newVersionText(estimate) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void flow.ask();
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
                flow.clearEstimate();
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
            onClick={() => void flow.start(fresh !== null)}
          >
            {downloadLabel(estimate)}
          </button>
          <StreetsDownloadFixes flow={flow} />
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
          {problem.text}
        </p>
      ) : null}
    </section>
  );
}
