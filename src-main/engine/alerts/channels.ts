/**
 * Where alerts go besides the in-app inbox (the alerts rows themselves): a webhook and email.
 * The settings that are not secret live in `alert_channels`; the webhook URL and the SMTP password
 * live in the keychain (SecretStore) under this data folder's profile, never in the file or a log.
 */
import { z } from 'zod';
import type { DeliveryChannel } from '../../../src-shared/alerts';
import type { Db } from '../store/database';

export const EmailConfig = z
  .object({
    host: z.string().trim().min(1).max(253),
    port: z.number().int().min(1).max(65535).default(587),
    /** 'starttls': plain connection upgraded (required, certificate verified); 'tls': TLS from the start (465). */
    tls: z.enum(['starttls', 'tls']).default('starttls'),
    user: z.string().max(320).nullable().default(null),
    from: z.string().min(3).max(320),
    to: z.array(z.string().min(3).max(320)).min(1).max(50),
    /** 'immediate': one message per alert; 'digest': one message a day at `digestHour` (local). */
    mode: z.enum(['immediate', 'digest']).default('immediate'),
    digestHour: z.number().int().min(0).max(23).default(7),
  })
  .strict();
export type EmailConfig = z.output<typeof EmailConfig>;

/** The webhook's only setting is its URL, a secret. `label` is what the UI shows instead. */
export const WebhookConfig = z.object({ label: z.string().max(100).default('Webhook') }).strict();
export type WebhookConfig = z.output<typeof WebhookConfig>;

/** Keychain accounts of a data folder's alert secrets. */
export const webhookAccount = (profileId: string): string => `alert-webhook:${profileId}`;
export const smtpPasswordAccount = (profileId: string): string => `smtp-password:${profileId}`;

type Row = { channel: DeliveryChannel; enabled: number; config: string };

export function setChannel(
  db: Db,
  channel: 'email',
  config: z.input<typeof EmailConfig>,
  enabled: boolean,
  now: number,
): void;
export function setChannel(
  db: Db,
  channel: 'webhook',
  config: z.input<typeof WebhookConfig>,
  enabled: boolean,
  now: number,
): void;
export function setChannel(
  db: Db,
  channel: DeliveryChannel,
  config: unknown,
  enabled: boolean,
  now: number,
): void {
  const parsed = channel === 'email' ? EmailConfig.parse(config) : WebhookConfig.parse(config);
  db.prepare(
    `INSERT INTO alert_channels (channel, enabled, config, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (channel) DO UPDATE SET enabled = excluded.enabled, config = excluded.config, updated_at = excluded.updated_at`,
  ).run(channel, enabled ? 1 : 0, JSON.stringify(parsed), now);
}

export function emailConfig(db: Db): EmailConfig | null {
  const row = db.prepare<[], Row>("SELECT * FROM alert_channels WHERE channel = 'email'").get();
  if (!row) return null;
  const parsed = EmailConfig.safeParse(JSON.parse(row.config));
  return parsed.success ? parsed.data : null;
}

export function enabledChannels(db: Db): Row[] {
  return db.prepare<[], Row>('SELECT * FROM alert_channels WHERE enabled = 1 ORDER BY channel').all();
}

/** The next local `hour`:00 after `now` (the digest's send time). */
export function nextDigestAt(now: number, hour: number): number {
  const d = new Date(now);
  d.setHours(hour, 0, 0, 0);
  if (d.getTime() <= now) d.setDate(d.getDate() + 1);
  return d.getTime();
}
