/**
 * Where alerts go besides the inbox: a webhook (its URL is a secret: kept in the keychain, never
 * shown again) and email through the office's mail server (the password in the keychain, bound to
 * the server it was entered for). A new mail server with the stored password needs a confirmation:
 * Electron asks in a dialog of its own; in the browser, enter the password again. The delivery log
 * below shows every attempt; a failed delivery can be retried.
 */
import { useCallback, useEffect, useId, useState, type ReactNode } from 'react';
import type { AlertChannelsView, DeliveryLogEntry } from '../../src-shared/alertCalls';
import { instantText } from '../../src-shared/localTime';
import { BridgeCallError, type Client } from '../bridge/client';
import styles from './alerts.module.css';

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
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

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
    void load().catch((e: unknown) => setMessage({ ok: false, text: String(e) }));
  }, [load]);

  const run = async (f: () => Promise<void>, done: string) => {
    setMessage(null);
    try {
      await f();
      await load();
      setMessage({ ok: true, text: done });
    } catch (e) {
      setMessage({ ok: false, text: e instanceof Error ? e.message : String(e) });
    }
  };

  const saveHook = () =>
    run(async () => {
      await client.call('setAlertChannels', {
        webhook: { enabled: hook.enabled, label: hook.label, ...(hook.url ? { url: hook.url } : {}) },
      });
    }, 'Webhook saved.');

  const saveEmail = () =>
    run(async () => {
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
    }, 'Email settings saved.');

  return (
    <section className={styles.section} aria-labelledby={`${id}-h`}>
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
        />
        <div className={styles.formActions}>
          <button type="submit" className="button">
            Save webhook
          </button>
        </div>
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
          <FieldRow key={key} id={`${id}-${key}`} label={label}>
            <input
              id={`${id}-${key}`}
              value={email[key]}
              onChange={(e) => setEmail({ ...email, [key]: e.target.value })}
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
      </form>
      {message ? (
        <p
          className={message.ok ? 'message message-ok' : 'message-error'}
          role={message.ok ? 'status' : 'alert'}
        >
          {message.text}
        </p>
      ) : null}

      <h3>Delivery log</h3>
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
                      void run(async () => {
                        await client.call('retryAlertDelivery', { deliveryId: entry.deliveryId });
                      }, 'Retrying.')
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

function FieldRow({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      {children}
    </>
  );
}
