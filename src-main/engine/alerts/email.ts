/**
 * Email through the office's SMTP server with nodemailer. The host is judged by the one outbound
 * module: anywhere but literal loopback the connection must be TLS with a verified certificate
 * (STARTTLS required, or TLS from the start); on loopback a plain local relay is allowed. The
 * password comes from the keychain. Message-ID is derived from the stable alert id (a digest's
 * from the ids it carries), so a retried message is recognisably the same message.
 */
import { createHash } from 'node:crypto';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { smtpTransportRule } from '../api/outboundAddress';
import { redact, registerSecret } from '../log';
import type { EmailConfig } from './channels';
import { emailText, type AlertPayload } from './payload';
import type { SendOutcome } from './webhook';

export const SMTP_TIMEOUT_MS = 20_000;

export type MailTransport = { sendMail(message: SendMailOptions): Promise<unknown>; close(): void };

export function smtpTransport(config: EmailConfig, password: string | null): MailTransport {
  const { loopback } = smtpTransportRule(config.host);
  if (password) registerSecret(password);
  return nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: config.tls === 'tls',
    requireTLS: config.tls === 'starttls' && !loopback,
    tls: { rejectUnauthorized: !loopback, servername: loopback ? undefined : config.host },
    auth: config.user ? { user: config.user, pass: password ?? '' } : undefined,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
}

export function messageIdOf(payloads: readonly AlertPayload[]): string {
  if (payloads.length === 1) return `<${(payloads[0] as AlertPayload).id}@alerts.blotter>`;
  const digest = createHash('sha256')
    .update(
      payloads
        .map((p) => p.id)
        .sort()
        .join(','),
    )
    .digest('hex')
    .slice(0, 32);
  return `<digest-${digest}@alerts.blotter>`;
}

export async function sendEmail(
  transport: MailTransport,
  config: EmailConfig,
  payloads: readonly AlertPayload[],
): Promise<SendOutcome> {
  const one = payloads.length === 1 ? payloads[0] : undefined;
  const subject = one
    ? `Blotter alert: ${one.rule.name}${one.area.name ? ` — ${one.area.name}` : ''}`
    : `Blotter alerts: ${payloads.length} today`;
  try {
    await transport.sendMail({
      from: config.from,
      to: config.to,
      subject,
      text: emailText(payloads),
      messageId: messageIdOf(payloads),
      headers: { 'X-Blotter-Alert-Id': payloads.map((p) => p.id).join(' ') },
    });
    return { ok: true };
  } catch (error) {
    const e = error as { code?: string; responseCode?: number; message?: string };
    // SMTP 5xx and a refused login will not get better by themselves: failed at once, shown, retryable.
    const permanent = e.code === 'EAUTH' || (e.responseCode !== undefined && e.responseCode >= 500);
    return {
      ok: false,
      error: redact(
        `The mail server refused or could not be reached: ${e.code ?? ''} ${e.message ?? String(error)}`.trim(),
      ),
      permanent,
    };
  }
}
