/**
 * "Use my API key": base URL, plan (with Enterprise's own rate and window), the key, then one test
 * request. The key goes to the keychain only when the test passes or says 403 (the key is right,
 * the IP not yet registered) — or when the user chooses "Save anyway" after a failure — and is
 * never read back; it sits in an uncontrolled password field until it is stored. The answer is
 * shown in plain words: what worked, or which link broke (key, static IP, network, proxy…).
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { contract, type ErrorCode } from '../../src-shared/contract';
import type { KeyStatus } from '../../src-shared/secrets';
import type { SettingsView } from '../../src-shared/settings';
import { BridgeCallError, type Client } from '../bridge/client';
import { errorText } from '../text/errorText';
import {
  checkForm,
  fieldErrorsOf,
  formOf,
  patchOf,
  type ConnectionField,
  type ConnectionForm,
  type FieldErrors,
} from '../views/settings/connectionForm';
import { ConnectionFields } from '../views/settings/ConnectionFields';
import { Field } from '../views/settings/Field';
import { KeychainProblem } from '../views/settings/KeychainProblem';
import { failureTitle } from './decision';
import styles from './welcome.module.css';

export type KeyFormProps = {
  client: Client;
  settings: SettingsView;
  keyStatus: KeyStatus;
  /** After a successful test: on to Areas. */
  onConnected: () => void;
  onRecheckKeychain: () => void;
};

type Outcome =
  | { ok: true; title: string; message: string }
  | { ok: false; code: ErrorCode | 'local'; title: string; message: string; canSaveAnyway: boolean };

/**
 * Failures after which "Save anyway" is offered: the API (or the network) said no. Not for what
 * the form or the contract refused, a missing keychain, or a 403 (stored already, see below).
 */
const SAVE_ANYWAY_CODES: ReadonlySet<string> = new Set([
  'unauthorized',
  'offline',
  'bad_response',
  'server_error',
  'rate_limited',
  'base_url_unconfirmed',
]);

export function KeyForm({ client, settings, keyStatus, onConnected, onRecheckKeychain }: KeyFormProps) {
  const headingId = useId();
  const keyRef = useRef<HTMLInputElement>(null);
  const [form, setForm] = useState<ConnectionForm>(() => formOf(settings));
  const [errors, setErrors] = useState<FieldErrors & { key?: string }>({});
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const resultRef = useRef<HTMLDivElement>(null);
  const keychain = keyStatus.keychain;

  useEffect(() => {
    if (outcome) resultRef.current?.scrollIntoView({ block: 'nearest' });
  }, [outcome]);

  const edit = <F extends ConnectionField>(field: F, value: ConnectionForm[F]) => {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const test = async (event: FormEvent) => {
    event.preventDefault();
    await run(false);
  };

  /**
   * Tests, and the engine stores only on success or a 403 — or, with `saveAnyway`, whatever the
   * test says. A key that was not stored stays in the field, so "Save anyway" can send it.
   */
  const run = async (saveAnyway: boolean) => {
    setOutcome(null);
    const typed = keyRef.current?.value ?? '';
    const local: FieldErrors & { key?: string } = checkForm(form);
    if (form.baseUrl.trim() === '') local.baseUrl = 'Enter the base URL the API operator gave you.';
    let key: string | undefined;
    if (typed.trim() !== '') {
      const checked = contract.setApiKey.input.safeParse({ key: typed });
      if (checked.success) key = checked.data.key;
      else local.key = checked.error.issues[0]?.message ?? 'Check the API key.';
    } else if (!keyStatus.keySet) {
      local.key = 'Enter your API key.';
    }
    setErrors(local);
    if (Object.values(local).some(Boolean)) return;

    setBusy(true);
    try {
      const result = await client.call('testConnection', {
        ...patchOf(form),
        ...(key ? { key } : {}),
        ...(saveAnyway ? { saveAnyway } : {}),
      });
      if (keyRef.current) keyRef.current.value = '';
      setOutcome({ ok: true, title: 'Connected', message: result.message });
    } catch (failure) {
      const code = failure instanceof BridgeCallError ? failure.code : null;
      if (saveAnyway && code !== 'keychain_unavailable' && code !== 'bad_input') {
        if (keyRef.current) keyRef.current.value = '';
        setOutcome({
          ok: true,
          title: 'Saved without a working connection',
          message: `Blotter saved the base URL${key ? ' and the key' : ''} as you entered them. The test said: ${outcomeOf(failure).message}`,
        });
        return;
      }
      // A 403 stores the key (it is right; the IP is not registered yet): clear the field.
      if (keyRef.current && code === 'ip_not_allowed') keyRef.current.value = '';
      setOutcome(outcomeOf(failure));
      if (failure instanceof BridgeCallError && failure.code === 'bad_input') {
        setErrors(fieldErrorsOf(failure.issues).fields);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={`card ${styles.welcomeForm}`} aria-labelledby={headingId}>
      <h2 id={headingId}>Use my API key</h2>
      <p className="muted">
        Enter what the API operator gave you. Blotter stores the key in this computer&apos;s keychain, then
        makes one test request to check the address, the key and this computer&apos;s IP address.
      </p>
      <form onSubmit={(event) => void test(event)} noValidate>
        <ConnectionFields
          form={form}
          errors={errors}
          edit={edit}
          baseUrlHint="The API's address, such as https://api.example.com"
        />

        {keychain.available ? null : (
          <KeychainProblem
            problem={keychain.problem}
            fix={keychain.fix}
            checking={false}
            onRecheck={onRecheckKeychain}
          />
        )}
        <Field
          label="API key"
          error={errors.key}
          hint={
            keyStatus.keySet ? 'A key is stored. Leave this empty to test it, or enter a new one.' : undefined
          }
        >
          {(control) => (
            <input
              {...control}
              ref={keyRef}
              type="password"
              autoComplete="off"
              autoCapitalize="off"
              autoCorrect="off"
              spellCheck={false}
              disabled={!keychain.available || busy}
              onInput={() => setErrors((current) => ({ ...current, key: undefined }))}
            />
          )}
        </Field>

        <div className="actions">
          <button type="submit" className="button primary" disabled={busy || !keychain.available}>
            {busy ? 'Testing…' : 'Test connection'}
          </button>
        </div>
      </form>

      <div ref={resultRef}>
        {outcome?.ok === false ? (
          <div
            className={`callout callout-danger ${styles.welcomeResult}`}
            role="alert"
            data-code={outcome.code}
          >
            <h3>{outcome.title}</h3>
            <p>{outcome.message}</p>
            {outcome.canSaveAnyway ? (
              <>
                <p>
                  Nothing was saved. Correct what is wrong and test again, or keep what you entered anyway.
                </p>
                <button type="button" className="button" disabled={busy} onClick={() => void run(true)}>
                  Save anyway
                </button>
              </>
            ) : null}
          </div>
        ) : null}
        <div className={styles.welcomeResult} role="status">
          {outcome?.ok ? (
            <div className="callout callout-ok">
              <h3>{outcome.title}</h3>
              <p>{outcome.message}</p>
              <button type="button" className="button primary" onClick={onConnected}>
                Add your first area
              </button>
            </div>
          ) : null}
        </div>
      </div>
    </section>
  );
}

export function outcomeOf(failure: unknown): Outcome {
  if (failure instanceof BridgeCallError) {
    // A contract check names fields in developer terms ("Invalid input for …"): show the fields' words.
    const message =
      failure.code === 'bad_input' && failure.message.startsWith('Invalid ') && failure.issues.length > 0
        ? failure.issues.map((issue) => issue.message).join(' ')
        : failure.message.trim() || errorText(failure);
    // The engine's own bad_input (a 404: no API at this address) may be saved anyway; a contract check may not.
    const canSaveAnyway =
      SAVE_ANYWAY_CODES.has(failure.code) ||
      (failure.code === 'bad_input' && !failure.message.startsWith('Invalid '));
    return { ok: false, code: failure.code, title: failureTitle(failure.code), message, canSaveAnyway };
  }
  return {
    ok: false,
    code: 'local',
    title: failureTitle('internal'),
    message: errorText(failure),
    canSaveAnyway: false,
  };
}
