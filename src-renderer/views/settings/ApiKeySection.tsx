/**
 * Enter, replace and remove the API key. The renderer never learns the stored key: it shows only
 * whether one is set. The typed key lives in an uncontrolled input (not in React state) and is
 * cleared from it as soon as the keychain holds it.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { contract } from '../../../src-shared/contract';
import type { KeyStatus } from '../../../src-shared/secrets';
import type { Client } from '../../bridge/client';
import { ConfirmDialog } from '../../shell/ConfirmDialog';
import { errorText } from '../../text/errorText';
import { Field } from './Field';
import { KeychainProblem } from './KeychainProblem';

export type ApiKeySectionProps = {
  client: Client;
  keyStatus: KeyStatus;
  onStatus: (status: KeyStatus) => void;
};

type Busy = 'save' | 'remove' | 'check' | null;

export function ApiKeySection({ client, keyStatus, onStatus }: ApiKeySectionProps) {
  const headingId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [hasText, setHasText] = useState(false);
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const { keychain, keySet } = keyStatus;

  const run = async (kind: Busy, work: () => Promise<string | null>) => {
    setBusy(kind);
    setError(null);
    setNotice(null);
    try {
      setNotice(await work());
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(null);
    }
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    const input = inputRef.current;
    if (!input) return;
    const checked = contract.setApiKey.input.safeParse({ key: input.value });
    if (!checked.success) {
      setNotice(null);
      setError(checked.error.issues[0]?.message ?? 'Check the API key.');
      return;
    }
    void run('save', async () => {
      const status = await client.call('setApiKey', checked.data);
      input.value = '';
      setHasText(false);
      onStatus(status);
      return keySet ? 'The API key was replaced.' : 'The API key is saved in the keychain.';
    });
  };

  const remove = () =>
    void run('remove', async () => {
      const status = await client.call('removeApiKey', {});
      setConfirming(false);
      onStatus(status);
      return 'The API key was removed from the keychain.';
    });

  const recheck = () =>
    void run('check', async () => {
      onStatus(await client.call('getKeyStatus', {}));
      return null;
    });

  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>API key</h2>
      <p className="muted">
        Your Crime Incident Data API key is kept in this computer&apos;s keychain, never in a file.
        Blotter&apos;s windows never see it; they only learn whether one is set.
      </p>

      <div className="key-state">
        <span className={keySet ? 'badge badge-ok' : 'badge badge-warn'} data-testid="key-state">
          {keySet ? 'An API key is set' : 'No API key set'}
        </span>
        {keychain.available ? <span className="muted key-backend">Keychain: {keychain.backend}</span> : null}
        {keySet && keychain.available ? (
          <button
            type="button"
            className="button"
            onClick={() => setConfirming(true)}
            disabled={busy !== null}
          >
            Remove key…
          </button>
        ) : null}
      </div>

      {confirming ? (
        <ConfirmDialog
          title="Remove the API key?"
          confirmLabel="Remove key"
          busyLabel="Removing…"
          busy={busy === 'remove'}
          danger
          onConfirm={remove}
          onCancel={() => setConfirming(false)}
          fallbackFocus={() => inputRef.current}
        >
          <p>
            Remove the API key from this computer&apos;s keychain? Blotter cannot sync until you enter a key
            again.
          </p>
          {error ? (
            <p className="message message-error" role="alert">
              {error}
            </p>
          ) : null}
        </ConfirmDialog>
      ) : null}

      {keychain.available ? null : (
        <KeychainProblem
          problem={keychain.problem}
          fix={keychain.fix}
          checking={busy === 'check'}
          onRecheck={recheck}
        />
      )}

      <form className="form-row" onSubmit={save} noValidate>
        <Field
          label="API key"
          hint={
            keySet
              ? 'Enter a new key to replace the stored one.'
              : 'Paste the key you received from the API operator.'
          }
        >
          {(control) => (
            <input
              {...control}
              ref={inputRef}
              type="password"
              autoComplete="off"
              autoCapitalize="off"
              autoCorrect="off"
              spellCheck={false}
              disabled={!keychain.available || busy !== null}
              onInput={(event) => setHasText(event.currentTarget.value.length > 0)}
            />
          )}
        </Field>
        <button
          type="submit"
          className="button primary"
          disabled={!keychain.available || !hasText || busy !== null}
        >
          {busy === 'save' ? 'Saving…' : keySet ? 'Replace key' : 'Save key'}
        </button>
      </form>

      {error && !confirming ? (
        <p className="message message-error" role="alert">
          {error}
        </p>
      ) : null}
      <p className="message message-ok" role="status">
        {notice}
      </p>
    </section>
  );
}
