/**
 * Settings → Map: the street layer under the incidents. None (bundled boundaries and place names
 * only), a local .mbtiles/.pmtiles file (raster), or an online tile URL with its attribution —
 * which is the only way Blotter's map ever goes online.
 */
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import type { BasemapInfo } from '../../../src-shared/basemap';
import type { SettingsView } from '../../../src-shared/settings';
import type { Client } from '../../bridge/client';
import { useEngineEvent } from '../../bridge/useEngineEvent';
import { errorText } from '../../text/errorText';
import {
  basemapFormOf,
  basemapSettingOf,
  basemapStatusText,
  type BasemapErrors,
  type BasemapForm,
} from './basemapForm';
import { AreasDownload } from './AreasDownload';
import { Field } from './Field';

export type BasemapSectionProps = {
  client: Client;
  settings: SettingsView;
  onSaved: (settings: SettingsView) => void;
};

const KINDS: { kind: BasemapForm['kind']; label: string }[] = [
  { kind: 'none', label: 'None — bundled boundaries and place names (offline)' },
  { kind: 'file', label: 'A map file on this computer (.mbtiles or .pmtiles, vector or raster)' },
  { kind: 'url', label: 'An online tile server' },
];

export function BasemapSection({ client, settings, onSaved }: BasemapSectionProps) {
  const headingId = useId();
  const [form, setForm] = useState<BasemapForm>(() => basemapFormOf(settings.basemap));
  const [errors, setErrors] = useState<BasemapErrors>({});
  const [info, setInfo] = useState<BasemapInfo | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const refresh = useCallback(
    () => client.call('getBasemapInfo', {}).then(setInfo, (e: unknown) => setProblem(errorText(e))),
    [client],
  );
  useEffect(() => void refresh(), [refresh]);
  useEngineEvent(client, ['basemapProgress'], (event) => {
    if (event.state === 'done') void refresh();
  });

  const edit = (patch: Partial<BasemapForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setErrors({});
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const { setting, errors: found } = basemapSettingOf(form);
    setErrors(found);
    if (!setting) return;
    setBusy(true);
    try {
      onSaved(await client.call('updateSettings', { basemap: setting }));
      await refresh();
    } catch (failure) {
      setProblem(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card app-form" aria-labelledby={headingId}>
      <h2 id={headingId}>Map</h2>
      <p className="muted">The street layer under the incidents. Without one, the map still works offline.</p>
      <form onSubmit={(event) => void save(event)} noValidate>
        <fieldset className="field">
          <legend>Street layer</legend>
          {KINDS.map((k) => (
            <label key={k.kind} className="radio">
              <input
                type="radio"
                name="basemap-kind"
                checked={form.kind === k.kind}
                onChange={() => edit({ kind: k.kind })}
              />
              {k.label}
            </label>
          ))}
        </fieldset>
        {form.kind === 'file' ? (
          <Field
            label="File"
            error={errors.path}
            hint="The full path of the file, as the Blotter computer sees it, e.g. /home/me/maps/city.mbtiles"
          >
            {(control) => (
              <input
                {...control}
                autoComplete="off"
                spellCheck={false}
                value={form.path}
                onChange={(e) => edit({ path: e.target.value })}
              />
            )}
          </Field>
        ) : null}
        {form.kind === 'url' ? (
          <>
            <Field
              label="Tile URL"
              error={errors.template}
              hint="With {z}, {x} and {y}; {s} picks a subdomain. Blotter fetches only the tiles you view, caches them as the server allows, and never downloads areas ahead."
            >
              {(control) => (
                <input
                  {...control}
                  type="url"
                  autoComplete="off"
                  spellCheck={false}
                  placeholder="https://tiles.example.org/{z}/{x}/{y}.png"
                  value={form.template}
                  onChange={(e) => edit({ template: e.target.value })}
                />
              )}
            </Field>
            <Field
              label="Attribution"
              error={errors.attribution}
              hint="Shown on the map, as the tile provider requires."
            >
              {(control) => (
                <input
                  {...control}
                  autoComplete="off"
                  value={form.attribution}
                  onChange={(e) => edit({ attribution: e.target.value })}
                />
              )}
            </Field>
          </>
        ) : null}
        <div className="actions">
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save map settings'}
          </button>
        </div>
      </form>
      <p
        className={info?.status === 'error' ? 'message message-error' : 'muted'}
        role="status"
        data-testid="basemap-status"
      >
        {basemapStatusText(info)}
      </p>
      {problem ? (
        <p className="message message-error" role="alert">
          {problem}
        </p>
      ) : null}
      <AreasDownload client={client} settings={settings} onSaved={onSaved} />
    </section>
  );
}
