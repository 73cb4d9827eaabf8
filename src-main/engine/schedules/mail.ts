/**
 * Mails a printed report through the mail server set for alerts (alerts/channels.ts), with the
 * alerts' transport rules (alerts/email.ts: TLS off loopback) and the password's binding to that
 * server (alerts/mailAddress.ts). The password is the keychain's, or — where no keychain is
 * reachable (cron without D-Bus) — `BLOTTER_SMTP_PASSWORD`, which the CLI's secret store answers
 * for the same account. Message-ID names the schedule and its due time, so a repeat is the same message.
 */
import type { Logger } from '../log';
import type { SecretStore } from '../secrets/secretStore';
import type { Db } from '../store/database';
import { emailConfig, smtpPasswordAccount, type EmailConfig } from '../alerts/channels';
import { smtpTransport, type MailTransport } from '../alerts/email';
import { mailAddressText, passwordMayGoTo } from '../alerts/mailAddress';
import { redact } from '../log';
import type { ScheduleRow } from './store';

export type ReportMailDeps = {
  db: Db;
  secrets: SecretStore;
  profileId: () => string;
  log: Logger;
  /** Tests may swap the transport; by default the alerts' SMTP transport. */
  transport?: (config: EmailConfig, password: string | null) => MailTransport;
};

export type Mailed = { ok: true } | { ok: false; error: string };

export async function mailReport(
  deps: ReportMailDeps,
  schedule: ScheduleRow,
  report: { file: string; from: string; to: string; dueAt: number },
): Promise<Mailed> {
  const config = emailConfig(deps.db);
  if (!config) return { ok: false, error: 'Email is not set up: set the mail server in Alerts › Delivery.' };
  let password: string | null = null;
  if (config.user) {
    try {
      password = await deps.secrets.get(smtpPasswordAccount(deps.profileId()));
    } catch (error) {
      return {
        ok: false,
        error: `The mail password could not be read (${(error as Error).message}); set BLOTTER_SMTP_PASSWORD where no keychain is reachable.`,
      };
    }
    if (password !== null && !passwordMayGoTo(deps.db, config))
      return {
        ok: false,
        error: `The mail password has not been confirmed for ${mailAddressText(config)}: nothing was sent.`,
      };
  }
  let transport: MailTransport;
  try {
    transport = (deps.transport ?? smtpTransport)(config, password);
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  const week = report.from === report.to ? report.to : `${report.from} to ${report.to}`;
  try {
    await transport.sendMail({
      from: config.from,
      to: schedule.to ?? config.to,
      subject: `Blotter bulletin: ${schedule.areaName}, ${week}`,
      text:
        `The weekly bulletin of ${schedule.areaName} for ${week} (${schedule.zone}) is attached.\n\n` +
        `Sent by Blotter's report schedule ${schedule.id} (${schedule.time} on weekday ${schedule.weekday}).\n`,
      messageId: `<report-${schedule.id}-${report.dueAt}@reports.blotter>`,
      headers: { 'X-Blotter-Report-Schedule': String(schedule.id) },
      attachments: [
        {
          filename: `bulletin-${report.to}.pdf`,
          path: report.file,
          contentType: 'application/pdf',
        },
      ],
    });
    return { ok: true };
  } catch (error) {
    const e = error as { code?: string; message?: string };
    const error_ = redact(
      `The mail server refused or could not be reached: ${e.code ?? ''} ${e.message ?? String(error)}`.trim(),
    );
    deps.log.warn('the scheduled report was not mailed', { schedule: schedule.id, error: error_ });
    return { ok: false, error: error_ };
  } finally {
    transport.close();
  }
}
