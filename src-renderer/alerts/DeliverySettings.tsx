/**
 * Where alerts go besides the inbox: a webhook (its URL is a secret: kept in the keychain, never
 * shown again) and email through the office's mail server (the password in the keychain, bound to
 * the server it was entered for). A new mail server with the stored password needs a confirmation:
 * Electron asks in a dialog of its own; in the browser, enter the password again. The delivery log
 * below shows every attempt; a failed delivery can be retried. Each form's outcome stands beside
 * its Save button, and a refused field beside that field (announced and scrolled into view).
 */
import { useCallback, useEffect, useId, useState, type ReactNode } from 'react';
import type { AlertChannelsView, DeliveryLogEntry } from '../../src-shared/alertCalls';
import { instantText } from '../../src-shared/localTime';
import { BridgeCallError, type Client } from '../bridge/client';
import { InlineError, invalidProps } from '../shell/InlineMessage';
import styles from './alerts.module.css';

type Outcome = { ok: true; text: string } | { ok: false; error: unknown };
type Where = 'webhook' | 'email' | 'log';

/** What a failure says about one field (`path` as the engine names it). */
const issueOf = (outcome: Outcome | null, path: string): string | undefined =>
  outcome && !outcome.ok && outcome.error instanceof BridgeCallError
    ? outcome.error.issueFor(path)
    : undefined;

/** What a failure says beyond its fields: the message, unless a field shows every issue. */
function generalText(outcome: Outcome | null, shownPaths: readonly string[]): string | null {
  if (!outcome || outcome.ok) return null;
  const e = outcome.error;
  if (
    e instanceof BridgeCallError &&
    e.issues.length > 0 &&
    e.issues.every((i) => shownPaths.includes(i.path))
  )
    return null;
  return e instanceof Error ? e.message : String(e);
}

type Email = {
  enabled: boolean;
  host: string;
  port: string;
  tls: 'starttls' | 'tls';
  user: string;
  password: string;
  from: string;
  to: string;
  mode: 'immediate' | 'digest';
  digestHour: string;
};

function emailOf(view: AlertChannelsView | null): Email {
  const c = (view?.email.config ?? {}) as Record<string, unknown>;
  return {
    enabled: view?.email.enabled ?? false,
    host: String(c.host ?? ''),
    port: String(c.port ?? 587),
    tls: c.tls === 'tls' ? 'tls' : 'starttls',
    user: typeof c.user === 'string' ? c.user : '',
    password: '',
    from: String(c.from ?? ''),
    to: Array.isArray(c.to) ? c.to.join(', ') : '',
    mode: c.mode === 'digest' ? 'digest' : 'immediate',
    digestHour: String(c.digestHour ?? 7),
  };
}

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

      <form
        className={styles.ruleForm}
        aria-label="Email"
        onSubmit={(e) => {
          e.preventDefault();
          void saveEmail();
        }}
      >
        <label htmlFor={`${id}-mail-on`}>Email</label>
        <label className="check">
          <input
            id={`${id}-mail-on`}
            type="checkbox"
            checked={email.enabled}
            onChange={(e) => setEmail({ ...email, enabled: e.target.checked })}
          />
          Send alerts through the office’s mail server
        </label>
        {(
          [
            ['host', 'Mail server'],
            ['port', 'Port'],
            ['user', 'User (empty: no sign-in)'],
            ['from', 'From'],
            ['to', 'To (comma separated)'],
          ] as const
        ).map(([key, label]) => (
          <FieldRow
            key={key}
            id={`${id}-${key}`}
            label={label}
            error={issueOf(mailOutcome, `email.config.${key}`)}
          >
            <input
              id={`${id}-${key}`}
              value={email[key]}
              onChange={(e) => setEmail({ ...email, [key]: e.target.value })}
              {...invalidProps(`${id}-${key}-error`, issueOf(mailOutcome, `email.config.${key}`))}
            />
          </FieldRow>
        ))}
        <FieldRow id={`${id}-pw`} label="Password">
          <input
            id={`${id}-pw`}
            type="password"
            autoComplete="off"
            placeholder={view?.email.passwordStored ? 'Stored in the keychain — type to replace' : ''}
            value={email.password}
            onChange={(e) => setEmail({ ...email, password: e.target.value })}
          />
        </FieldRow>
        <FieldRow id={`${id}-tls`} label="Security">
          <select
            id={`${id}-tls`}
            value={email.tls}
            onChange={(e) => setEmail({ ...email, tls: e.target.value as Email['tls'] })}
          >
            <option value="starttls">STARTTLS (port 587)</option>
            <option value="tls">TLS from the start (port 465)</option>
          </select>
        </FieldRow>
        <FieldRow id={`${id}-mode`} label="Send">
          <select
            id={`${id}-mode`}
            value={email.mode}
            onChange={(e) => setEmail({ ...email, mode: e.target.value as Email['mode'] })}
          >
            <option value="immediate">each alert at once</option>
            <option value="digest">a daily digest</option>
          </select>
        </FieldRow>
        {email.mode === 'digest' ? (
          <FieldRow id={`${id}-hour`} label="Digest hour (0–23)">
            <input
              id={`${id}-hour`}
              type="number"
              min={0}
              max={23}
              value={email.digestHour}
              onChange={(e) => setEmail({ ...email, digestHour: e.target.value })}
            />
          </FieldRow>
        ) : null}
        {view && !view.email.hostConfirmed ? (
          <p className="message-error">
            The stored password was entered for another mail server.{' '}
            {host === 'electron'
              ? 'Saving asks you to confirm the new one.'
              : 'Enter it again to use it with this one.'}
          </p>
        ) : null}
        <div className={styles.formActions}>
          <button type="submit" className="button">
            Save email settings
          </button>
        </div>
        <OutcomeLine id={`${id}-mail-outcome`} outcome={mailOutcome} shownPaths={mailPaths} />
      </form>

      <h3>Delivery log</h3>
      <OutcomeLine id={`${id}-log-outcome`} outcome={outcomeOf('log')} shownPaths={[]} />
      {log.length === 0 ? (
        <p className="muted">Nothing sent yet.</p>
      ) : (
        <ul className={styles.list} aria-label="Delivery log">
          {log.map((entry, i) => (
            <li key={`${entry.deliveryId}-${i}`} className={styles.item}>
              <span className={styles.itemTitle}>{entry.ruleName}</span>
              <span>
                {entry.channel} · {instantText(entry.at)} ·{' '}
                {entry.ok ? 'delivered' : <span className={styles.failed}>failed: {entry.error}</span>}
              </span>
              {entry.state === 'failed' && i === log.findIndex((e) => e.deliveryId === entry.deliveryId) ? (
                <span className={styles.itemActions}>
                  <button
                    type="button"
                    className="link-button"
                    onClick={() =>
                      void run(
                        'log',
                        async () => {
                          await client.call('retryAlertDelivery', { deliveryId: entry.deliveryId });
                        },
                        'Retrying.',
                      )
                    }
                  >
                    Retry
                  </button>
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function errorMessage(outcome: { ok: false; error: unknown }): string {
  return outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
}

/** A form's outcome beside its Save button: done (a status), or what failed beyond its fields. */
function OutcomeLine({
  id,
  outcome,
  shownPaths,
}: {
  id: string;
  outcome: Outcome | null;
  shownPaths: readonly string[];
}) {
  if (outcome?.ok)
    return (
      <p id={id} className="message message-ok" role="status">
        {outcome.text}
      </p>
    );
  return <InlineError id={id} message={generalText(outcome, shownPaths)} className="message-error" />;
}

function FieldRow({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error?: string | undefined;
  children: ReactNode;
}) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      {children}
      <InlineError id={`${id}-error`} message={error} />
    </>
  );
}
