/**
 * Where alerts go besides the inbox: a webhook (its URL is a secret: kept in the keychain, never
 * shown again) and email through the office's mail server (the password in the keychain, bound to
 * the server it was entered for). A new mail server with the stored password needs a confirmation:
 * Electron asks in a dialog of its own; in the browser, enter the password again. The delivery log
 * below shows every attempt; a failed delivery can be retried. Each form's outcome stands beside
 * its Save button, and a refused field beside that field (announced and scrolled into view).
 */
import { useCallback, useEffect, useId, useState } from 'react';
import type { AlertChannelsView, DeliveryLogEntry } from '../../src-shared/alertCalls';
import { BridgeCallError, type Client } from '../bridge/client';
import { InlineError, invalidProps } from '../shell/InlineMessage';
import { DeliveryLog } from './DeliveryLog';
import {
  emailOf,
  errorMessage,
  issueOf,
  OutcomeLine,
  type Email,
  type Outcome,
  type Where,
} from './deliveryParts';
import { EmailChannelForm } from './EmailChannelForm';
import styles from './alerts.module.css';

export function DeliverySettings({
  client,
  host,
}: {
  client: Client;
  host: 'electron' | 'web' | 'cli' | null;
}) {
  const id = useId();
  const [view, setView] = useState<AlertChannelsView | null>(null);
  const [log, setLog] = useState<DeliveryLogEntry[]>([]);
  const [hook, setHook] = useState({ enabled: false, label: 'Webhook', url: '' });
  const [email, setEmail] = useState<Email>(() => emailOf(null));
  const [outcome, setOutcome] = useState<{ where: Where; outcome: Outcome } | null>(null);
  const outcomeOf = (where: Where): Outcome | null => (outcome?.where === where ? outcome.outcome : null);

  const load = useCallback(async () => {
    const [v, l] = await Promise.all([
      client.call('getAlertChannels', {}),
      client.call('listAlertDeliveries', { limit: 50 }),
    ]);
    setView(v);
    setLog(l.entries);
    setHook({ enabled: v.webhook.enabled, label: v.webhook.label, url: '' });
    setEmail(emailOf(v));
  }, [client]);
  useEffect(() => {
    void load().catch((e: unknown) => setOutcome({ where: 'log', outcome: { ok: false, error: e } }));
  }, [load]);

  const run = async (where: Where, f: () => Promise<void>, done: string) => {
    setOutcome(null);
    try {
      await f();
      await load();
      setOutcome({ where, outcome: { ok: true, text: done } });
    } catch (e) {
      setOutcome({ where, outcome: { ok: false, error: e } });
    }
  };
  const hookOutcome = outcomeOf('webhook');
  const mailOutcome = outcomeOf('email');
  const mailPaths = ['host', 'port', 'user', 'from', 'to'].map((k) => `email.config.${k}`);

  const saveHook = () =>
    run(
      'webhook',
      async () => {
        await client.call('setAlertChannels', {
          webhook: { enabled: hook.enabled, label: hook.label, ...(hook.url ? { url: hook.url } : {}) },
        });
      },
      'Webhook saved.',
    );

  const saveEmail = () =>
    run(
      'email',
      async () => {
        const input = {
          enabled: email.enabled,
          config: {
            host: email.host,
            port: Number(email.port),
            tls: email.tls,
            user: email.user || null,
            from: email.from,
            to: email.to
              .split(',')
              .map((t) => t.trim())
              .filter(Boolean),
            mode: email.mode,
            digestHour: Number(email.digestHour),
          },
          ...(email.password ? { password: email.password } : {}),
        };
        try {
          await client.call('setAlertChannels', { email: input });
        } catch (e) {
          // A new server for the stored password: Electron's main process asks; then save again.
          if (e instanceof BridgeCallError && e.code === 'base_url_unconfirmed' && host === 'electron') {
            await client.call('confirmAlertEmailHost', {
              host: input.config.host,
              port: input.config.port,
              tls: input.config.tls,
            });
            await client.call('setAlertChannels', { email: input });
          } else throw e;
        }
      },
      'Email settings saved.',
    );

  return (
    <section
      className={`${styles.section} app-form`}
      aria-labelledby={`${id}-h`}
      data-testid="delivery-settings"
      data-loaded={view ? 'true' : 'false'}
    >
      <h2 id={`${id}-h`}>Delivery</h2>
      <form
        className={styles.ruleForm}
        aria-label="Webhook"
        onSubmit={(e) => {
          e.preventDefault();
          void saveHook();
        }}
      >
        <label htmlFor={`${id}-hook-on`}>Webhook</label>
        <label className="check">
          <input
            id={`${id}-hook-on`}
            type="checkbox"
            checked={hook.enabled}
            onChange={(e) => setHook({ ...hook, enabled: e.target.checked })}
          />
          POST each alert as JSON (Teams, Slack and similar incoming hooks)
        </label>
        <label htmlFor={`${id}-hook-url`}>Webhook URL</label>
        <input
          id={`${id}-hook-url`}
          type="password"
          autoComplete="off"
          placeholder={view?.webhook.urlStored ? 'Stored in the keychain — type to replace' : 'https://…'}
          value={hook.url}
          onChange={(e) => setHook({ ...hook, url: e.target.value })}
          {...invalidProps(`${id}-hook-url-error`, issueOf(hookOutcome, 'webhook.url'))}
        />
        <InlineError
          id={`${id}-hook-url-error`}
          message={
            issueOf(hookOutcome, 'webhook.url') && hookOutcome && !hookOutcome.ok
              ? errorMessage(hookOutcome)
              : null
          }
          testId="webhook-url-error"
        />
        <div className={styles.formActions}>
          <button type="submit" className="button">
            Save webhook
          </button>
        </div>
        <OutcomeLine id={`${id}-hook-outcome`} outcome={hookOutcome} shownPaths={['webhook.url']} />
      </form>

      <EmailChannelForm
        id={id}
        email={email}
        setEmail={setEmail}
        view={view}
        host={host}
        mailOutcome={mailOutcome}
        mailPaths={mailPaths}
        onSave={() => void saveEmail()}
      />

      <DeliveryLog
        id={id}
        log={log}
        outcome={outcomeOf('log')}
        onRetry={(deliveryId) =>
          void run(
            'log',
            async () => {
              await client.call('retryAlertDelivery', { deliveryId });
            },
            'Retrying.',
          )
        }
      />
    </section>
  );
}
