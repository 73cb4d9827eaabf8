/**
 * The delivery worker: takes due deliveries from the queue, sends them (webhook POST, email
 * immediately or as a daily digest), and records every attempt. At least once: a delivery is
 * marked delivered only after the channel accepted it, so a kill between sending and recording
 * sends it again (the receiver dedupes by the alert id). Never silent: every failure is in the
 * delivery's `last_error` and the log table; the alert itself is never touched.
 */
import type { PostFetch } from '../api/outboundAddress';
import type { Logger } from '../log';
import type { SecretStore } from '../secrets/secretStore';
import type { Db } from '../store/database';
import { emailConfig, smtpPasswordAccount, webhookAccount, type EmailConfig } from './channels';
import { sendEmail, smtpTransport, type MailTransport } from './email';
import { mailAddressText, passwordMayGoTo } from './mailAddress';
import { alertPayload, type AlertPayload } from './payload';
import { claim, dueDeliveries, recordAttempt, type DeliveryRow } from './queue';
import { sendWebhook, type SendOutcome } from './webhook';

export type DeliveryDeps = {
  db: Db;
  secrets: SecretStore;
  profileId: string;
  fetch: PostFetch;
  now: () => number;
  log: Logger;
  /** Tests may swap the transport; by default nodemailer's SMTP transport. */
  transport?: (config: EmailConfig, password: string | null) => MailTransport;
};

export type DeliveryRound = { delivered: number; failed: number };

export function createAlertDelivery(deps: DeliveryDeps) {
  const { db, log } = deps;
  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<DeliveryRound> | null = null;

  const record = (rows: DeliveryRow[], outcome: SendOutcome, started: number, round: DeliveryRound) => {
    const at = deps.now();
    for (const r of rows) recordAttempt(db, r.id, outcome, at, Math.max(0, at - started));
    if (outcome.ok) round.delivered += rows.length;
    else {
      round.failed += rows.length;
      log.warn('alert delivery failed', {
        channel: rows[0]?.channel,
        deliveries: rows.map((r) => r.id),
        error: outcome.error,
      });
    }
  };

  const secret = async (account: string): Promise<string | null | Error> => {
    try {
      return await deps.secrets.get(account);
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  };

  async function webhook(row: DeliveryRow, payload: AlertPayload, round: DeliveryRound) {
    const started = deps.now();
    const url = await secret(webhookAccount(deps.profileId));
    if (url instanceof Error || !url) {
      const error = url instanceof Error ? url.message : 'No webhook URL is stored in the keychain.';
      return record([row], { ok: false, error }, started, round);
    }
    record([row], await sendWebhook(deps.fetch, url, payload), started, round);
  }

  async function email(
    rows: DeliveryRow[],
    payloads: AlertPayload[],
    config: EmailConfig,
    round: DeliveryRound,
  ) {
    const started = deps.now();
    let password: string | null = null;
    if (config.user) {
      const p = await secret(smtpPasswordAccount(deps.profileId));
      if (p instanceof Error) return record(rows, { ok: false, error: p.message }, started, round);
      // Bound to the address it was typed with: never sent to another, whatever changed the settings.
      if (p !== null && !passwordMayGoTo(db, config)) {
        const error = `The stored mail password has not been confirmed for ${mailAddressText(config)}: nothing was sent. Confirm the server in Alerts › Delivery, or enter the password again.`;
        return record(rows, { ok: false, error }, started, round);
      }
      password = p;
    }
    let transport: MailTransport;
    try {
      transport = (deps.transport ?? smtpTransport)(config, password);
    } catch (error) {
      return record(rows, { ok: false, error: (error as Error).message, permanent: true }, started, round);
    }
    try {
      record(rows, await sendEmail(transport, config, payloads), started, round);
    } finally {
      transport.close();
    }
  }

  async function round(): Promise<DeliveryRound> {
    const result: DeliveryRound = { delivered: 0, failed: 0 };
    const now = deps.now();
    const due = dueDeliveries(db, now).filter((r) => claim(db, r.id, now));
    const config = emailConfig(db);
    const mails: { row: DeliveryRow; payload: AlertPayload }[] = [];
    for (const row of due) {
      const payload = alertPayload(db, row.alert_id);
      if (!payload) continue; // the alert was deleted: its deliveries went with it
      if (row.channel === 'webhook') await webhook(row, payload, result);
      else mails.push({ row, payload });
    }
    if (mails.length > 0) {
      if (!config) {
        record(
          mails.map((m) => m.row),
          { ok: false, error: 'Email is not set up (no mail server in the alert settings).' },
          deps.now(),
          result,
        );
      } else if (config.mode === 'digest') {
        await email(
          mails.map((m) => m.row),
          mails.map((m) => m.payload),
          config,
          result,
        );
      } else {
        for (const m of mails) await email([m.row], [m.payload], config, result);
      }
    }
    return result;
  }

  return {
    /** Sends what is due now; concurrent calls share one round. */
    runDue(): Promise<DeliveryRound> {
      running ??= round().finally(() => (running = null));
      return running;
    },
    start(intervalMs = 15_000): void {
      timer ??= setInterval(() => {
        void this.runDue().catch((error: unknown) =>
          log.error('alert delivery round failed', { error: String(error) }),
        );
      }, intervalMs);
      timer.unref?.();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
}

export type AlertDelivery = ReturnType<typeof createAlertDelivery>;
