/**
 * Settings › Office, before joining: the office database's address (server, port, database, role),
 * the password (to the keychain, never the address), the connection's security and a private CA's
 * certificate (uploaded in the web host; chosen in Electron's open dialog), then Join. A folder with
 * an archive of its own is offered to seed an empty office, or to give way to it.
 */
import { useState, type Dispatch, type FormEvent, type SetStateAction } from 'react';
import type { Client } from '../../bridge/client';
import { uploadFile } from '../../export/upload';
import { Field } from './Field';
import { officeUrlOf, type OfficeForm, type OfficeFormErrors } from './officeForm';
import type { Offer, OfficeRun } from './useOfficeRun';

/** The join form's text fields, in order (the password's goes to the keychain, never the address). */
const JOIN_FIELDS: readonly {
  key: 'host' | 'port' | 'database' | 'user' | 'password';
  label: string;
  hint?: string;
}[] = [
  { key: 'host', label: 'Server', hint: 'The office database server’s name or address, e.g. db.office.lan' },
  { key: 'port', label: 'Port' },
  { key: 'database', label: 'Database' },
  {
    key: 'user',
    label: 'Role',
    hint: 'The database role Blotter logs in as (README: a least-privilege role).',
  },
  {
    key: 'password',
    label: 'Password',
    hint: 'Kept in this computer’s keychain for this data folder; never in the address.',
  },
];

type Props = {
  client: Client;
  /** The web host: a private CA's file is uploaded from the page; Electron: its open dialog chooses it. */
  web: boolean;
  actions: OfficeRun;
  /** The typed address, kept by the section so it is still there after leaving. */
  form: OfficeForm;
  setForm: Dispatch<SetStateAction<OfficeForm>>;
  /** Joined: what happened in words; the section reads the status again. */
  onJoined: (notice: string) => Promise<void>;
};

export function OfficeJoinForm({ client, web, actions, form, setForm, onJoined }: Props) {
  const { busy, run, setProblem } = actions;
  /** The web host's CA certificate file, uploaded when joining. */
  const [caUpload, setCaUpload] = useState<File | null>(null);
  const [errors, setErrors] = useState<OfficeFormErrors>({});
  const [offer, setOffer] = useState<Offer | null>(null);

  const edit = (patch: Partial<OfficeForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setErrors({});
    setOffer(null);
  };

  const join = (how: { seed?: boolean; replaceLocal?: boolean } = {}) =>
    run(async () => {
      const { url, errors: found } = officeUrlOf(form);
      setErrors(found);
      if (!url) return;
      // The host chooses the CA file: an upload here, the open dialog in Electron.
      const caFile =
        form.tls !== 'verify-full' || !form.privateCa
          ? undefined
          : web
            ? caUpload
              ? await uploadFile(caUpload).then((u) => ({ uploadId: u.uploadId, name: u.name }))
              : undefined
            : ({ choose: true } as const);
      if (form.tls === 'verify-full' && form.privateCa && !caFile)
        return setProblem('Choose the CA certificate file, or clear “A private CA signed its certificate”.');
      const { pulled } = await client.call('joinOffice', {
        url,
        ...(caFile ? { caFile } : {}),
        password: form.password === '' ? null : form.password,
        replaceLocal: how.replaceLocal ?? false,
        seed: how.seed ?? false,
      });
      setForm((f) => ({ ...f, password: '' }));
      setOffer(null);
      await onJoined(
        how.seed
          ? `Joined: this folder's archive now seeds the office (${pulled.incidents} incidents).`
          : `Joined: pulled ${pulled.incidents} incidents and ${pulled.areas} areas from the office.`,
      );
    }, setOffer);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void join();
  };

  return (
    <>
      <form onSubmit={submit} noValidate aria-label="Join an office database">
        {JOIN_FIELDS.map((f) => (
          <Field
            key={f.key}
            label={f.label}
            error={f.key === 'password' ? undefined : errors[f.key]}
            {...(f.hint ? { hint: f.hint } : {})}
          >
            {(c) => (
              <input
                {...c}
                type={f.key === 'password' ? 'password' : 'text'}
                {...(f.key === 'port'
                  ? { inputMode: 'numeric' }
                  : { autoComplete: 'off', spellCheck: false })}
                value={form[f.key]}
                onChange={(e) => edit({ [f.key]: e.target.value })}
              />
            )}
          </Field>
        ))}
        <fieldset className="field">
          <legend>Connection security</legend>
          <label className="radio">
            <input
              type="radio"
              name="office-tls"
              checked={form.tls === 'verify-full'}
              onChange={() => edit({ tls: 'verify-full' })}
            />
            TLS, the server’s certificate verified (always, unless the server is this computer)
          </label>
          <label className="radio">
            <input
              type="radio"
              name="office-tls"
              checked={form.tls === 'disable'}
              onChange={() => edit({ tls: 'disable' })}
            />
            No TLS — only for a server on this computer (127.0.0.1)
          </label>
        </fieldset>
        {form.tls === 'verify-full' ? (
          <label className="radio">
            <input
              type="checkbox"
              checked={form.privateCa}
              onChange={(e) => edit({ privateCa: e.target.checked })}
            />
            A private CA signed its certificate
            {web ? '' : ' (you choose the CA’s certificate file when joining)'}
          </label>
        ) : null}
        {form.tls === 'verify-full' && form.privateCa && web ? (
          <Field
            label="CA certificate file"
            hint="The private CA’s certificate (PEM): a copy is kept in this data folder."
          >
            {(c) => (
              <input
                {...c}
                type="file"
                accept=".pem,.crt,.cer"
                onChange={(e) => {
                  setCaUpload(e.target.files?.[0] ?? null);
                  setErrors({});
                }}
              />
            )}
          </Field>
        ) : null}
        <div className="actions">
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Joining…' : 'Join the office'}
          </button>
        </div>
      </form>
      {offer ? (
        <div className="message" role="alert" data-testid="office-offer">
          <p>{offer.message}</p>
          <div className="actions">
            {offer.seed ? (
              <button
                type="button"
                className="button primary"
                disabled={busy}
                onClick={() => void join({ seed: true })}
              >
                Seed the office with this archive
              </button>
            ) : null}
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => void join({ replaceLocal: true })}
            >
              Replace this folder’s archive with the office’s
            </button>
          </div>
        </div>
      ) : null}
    </>
  );
}
