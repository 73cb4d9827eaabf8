/**
 * Settings › Office: join this data folder to the office's PostgreSQL database (address without a
 * password; the password goes to the keychain; TLS verified unless the server is this computer),
 * its status (which areas this desktop leads and for how long, the office's requests in the last
 * minute, how far the replica is behind, the last pull, or "PostgreSQL unreachable: syncs paused,
 * working on the replica"), a pull now, and leaving (the replica stays as a standalone archive).
 * A folder with an archive of its own is offered to seed an empty office, or to give way to it.
 */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { OfficeStatus } from '../../../src-shared/officeCalls';
import { BridgeCallError, type Client } from '../../bridge/client';
import { uploadFile } from '../../export/upload';
import { errorText } from '../../text/errorText';
import { Field } from './Field';
import { LeaveOfficeConfirm } from './LeaveOfficeConfirm';
import {
  EMPTY_OFFICE_FORM,
  officeStatusLines,
  officeUrlOf,
  type OfficeForm,
  type OfficeFormErrors,
} from './officeForm';

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

export type OfficeSectionProps = {
  client: Client;
  /** The web host: a private CA's file is uploaded from the page; Electron: its open dialog chooses it. */
  web: boolean;
};

/** What the folder's own archive may do when joining: seed an empty office, or give way. */
type Offer = { seed: boolean; message: string } | null;

export function OfficeStatusList({
  status,
  areaName,
  now,
}: {
  status: OfficeStatus;
  areaName: (id: number) => string;
  now: number;
}) {
  return (
    // The live region wraps the list: a list given role="status" stops being a list for its items.
    <div data-testid="office-status" role="status">
      <ul className="plain">
        {officeStatusLines(status, areaName, now).map((l) => (
          <li key={l.text} className={l.tone === 'warn' ? 'message message-error' : undefined}>
            {l.text}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function OfficeSection({ client, web }: OfficeSectionProps) {
  const headingId = useId();
  const [status, setStatus] = useState<OfficeStatus | null>(null);
  const [names, setNames] = useState<Map<number, string>>(new Map());
  const [form, setForm] = useState<OfficeForm>(EMPTY_OFFICE_FORM);
  /** The web host's CA certificate file, uploaded when joining. */
  const [caUpload, setCaUpload] = useState<File | null>(null);
  const [errors, setErrors] = useState<OfficeFormErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [offer, setOffer] = useState<Offer>(null);
  const [busy, setBusy] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const [leaving, setLeaving] = useState(false);
  const sectionRef = useRef<HTMLElement>(null);

  const refresh = useCallback(async () => {
    try {
      setStatus(await client.call('getOfficeStatus', {}));
      const { areas } = await client.call('listAreas', {});
      setNames(new Map(areas.map((a) => [a.id, a.name])));
      setNow(Date.now());
    } catch (e) {
      setProblem(errorText(e));
    }
  }, [client]);
  useEffect(() => void refresh(), [refresh]);
  useEffect(() => {
    if (!status?.joined) return;
    const t = setInterval(() => void refresh(), 10_000);
    return () => clearInterval(t);
  }, [status?.joined, refresh]);

  const edit = (patch: Partial<OfficeForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setErrors({});
    setOffer(null);
  };

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    setNotice(null);
    try {
      await work();
    } catch (e) {
      if (e instanceof BridgeCallError && e.code === 'cancelled') return;
      // An upload's failure (export/upload.ts) says its own words; the engine's come as BridgeCallError.
      const text = e instanceof BridgeCallError || !(e instanceof Error) ? errorText(e) : e.message;
      if (/holds \d+ incidents and \d+ areas of its own/.test(text))
        setOffer({ seed: /office is empty/.test(text), message: text });
      else setProblem(text);
    } finally {
      setBusy(false);
    }
  };

  /** A button's work: its call, then what it did in words, and the status read again. */
  const act = (work: () => Promise<string>) => () =>
    void run(async () => {
      setNotice(await work());
      await refresh();
    });

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
      setNotice(
        how.seed
          ? `Joined: this folder's archive now seeds the office (${pulled.incidents} incidents).`
          : `Joined: pulled ${pulled.incidents} incidents and ${pulled.areas} areas from the office.`,
      );
      await refresh();
    });

  /** Leaving, once confirmed: a failure stays in the dialog. */
  const leave = async () => {
    const left = await client.call('leaveOffice', {});
    setProblem(null);
    setNotice(
      `Left the office: this folder keeps its ${left.replicaIncidents} incidents as a standalone archive.`,
    );
    await refresh();
    setLeaving(false);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void join();
  };

  return (
    <section className="card" aria-labelledby={headingId} ref={sectionRef}>
      <h2 id={headingId}>Office</h2>
      <p className="muted">
        Share one API key’s rate budget and one archive with every Blotter in the office, on PostgreSQL. This
        folder stays a replica you can work on offline.
      </p>
      {status ? (
        <OfficeStatusList status={status} areaName={(id) => names.get(id) ?? `Area ${id}`} now={now} />
      ) : null}
      {status?.joined ? (
        <div className="actions">
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={act(async () => {
              const n = await client.call('pullOffice', {});
              return `Pulled ${n.incidents} incidents, ${n.areas} areas and ${n.deletions} deletions.`;
            })}
          >
            Pull now
          </button>
          <button type="button" className="button" disabled={busy} onClick={() => setLeaving(true)}>
            Leave the office…
          </button>
        </div>
      ) : status ? (
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
      ) : null}
      {leaving && status ? (
        <LeaveOfficeConfirm
          status={status}
          areas={names.size}
          onLeave={leave}
          onCancel={() => setLeaving(false)}
          // Its button went with the joined state: the join form's first field.
          fallbackFocus={() => sectionRef.current?.querySelector<HTMLElement>('input, button')}
        />
      ) : null}
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
      {notice ? (
        <p className="message" role="status">
          {notice}
        </p>
      ) : null}
      {problem ? (
        <p className="message message-error" role="alert">
          {problem}
        </p>
      ) : null}
    </section>
  );
}
