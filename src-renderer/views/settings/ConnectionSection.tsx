/**
 * Where the API lives and which plan the key has: base URL, plan, and Enterprise's own limits. A new
 * base URL does not take the stored API key with it: when the engine says the key is not confirmed
 * for it (`baseUrlConfirmed: false`), this offers to confirm — in the desktop app a dialog of the
 * main process names the host; in a browser the answer says to enter the key again with it.
 */
import { useId, useState, type FormEvent } from 'react';
import type { SettingsView } from '../../../src-shared/settings';
import { BridgeCallError, type Client } from '../../bridge/client';
import { errorText } from '../../text/errorText';
import {
  checkForm,
  fieldErrorsOf,
  formOf,
  patchOf,
  type ConnectionField,
  type ConnectionForm,
  type FieldErrors,
} from './connectionForm';
import { ConnectionFields } from './ConnectionFields';

export type ConnectionSectionProps = {
  client: Client;
  settings: SettingsView;
  onSaved: (settings: SettingsView) => void;
};

export function ConnectionSection({ client, settings, onSaved }: ConnectionSectionProps) {
  const headingId = useId();
  const [form, setForm] = useState<ConnectionForm>(() => formOf(settings));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmProblem, setConfirmProblem] = useState<string | null>(null);
  const unconfirmedHost =
    settings.baseUrl && settings.baseUrlConfirmed === false ? hostOf(settings.baseUrl) : null;

  const confirm = async () => {
    if (!settings.baseUrl) return;
    setConfirmProblem(null);
    setBusy(true);
    try {
      const saved = await client.call('confirmBaseUrl', { baseUrl: settings.baseUrl });
      onSaved(saved);
      setNotice(`The API key may now be sent to ${hostOf(settings.baseUrl)}.`);
    } catch (failure) {
      setConfirmProblem(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  const edit = <F extends ConnectionField>(field: F, value: ConnectionForm[F]) => {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    setNotice(null);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    setNotice(null);
    const local = checkForm(form);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    try {
      const saved = await client.call('updateSettings', patchOf(form));
      onSaved(saved);
      setForm(formOf(saved));
      setNotice('Settings saved.');
    } catch (failure) {
      if (failure instanceof BridgeCallError && failure.code === 'bad_input') {
        const { fields, other } = fieldErrorsOf(failure.issues);
        setErrors(fields);
        if (other.length > 0) setProblem(other.join(' '));
        else if (Object.keys(fields).length === 0) setProblem(errorText(failure));
      } else {
        setProblem(errorText(failure));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>Connection</h2>
      <p className="muted">Where the Crime Incident Data API lives, and the plan your key belongs to.</p>
      <form onSubmit={(event) => void save(event)} noValidate>
        <ConnectionFields
          form={form}
          errors={errors}
          edit={edit}
          baseUrlHint="The address the API operator gave you, such as https://api.example.com"
        />

        <div className="actions">
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save settings'}
          </button>
        </div>
      </form>
      {problem ? (
        <p className="message message-error" role="alert">
          {problem}
        </p>
      ) : null}
      {unconfirmedHost ? (
        <div className="callout callout-warn" data-testid="base-url-unconfirmed">
          <p>
            The stored API key has not been confirmed for {unconfirmedHost}. Blotter does not send it there
            until you confirm it (or enter the key again in API key below).
          </p>
          <button type="button" className="button" disabled={busy} onClick={() => void confirm()}>
            Send the key to {unconfirmedHost}…
          </button>
          {confirmProblem ? (
            <p className="message message-error" role="alert">
              {confirmProblem}
            </p>
          ) : null}
        </div>
      ) : null}
      <p className="message message-ok" role="status">
        {notice}
      </p>
    </section>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
