/**
 * Where the stored SMTP password may go: the mail server's whole address — security (smtp with
 * STARTTLS, smtps with TLS from the start), host and port — it was entered with, under the one
 * rule of a secret bound to its origin (secrets/secretOrigin.ts, row `smtpPasswordOrigin`).
 * Another port on the same host is another address: the password follows only when it is typed
 * again with it, or the host confirms (Electron's dialog, the CLI's flag). Delivery checks it too,
 * so a password is never sent to an address it was not bound to, whatever changed the settings.
 *
 * A folder from before this rule kept only the host (`smtpPasswordHost`): its mail server is taken
 * as the password's when that host is the one set, the first time, before any change.
 */
import { originBinding } from '../secrets/secretOrigin';
import type { Db } from '../store/database';
import { emailConfig, type EmailConfig } from './channels';

const binding = originBinding('smtpPasswordOrigin');
const LEGACY_HOST_ROW = 'smtpPasswordHost';

type Address = Pick<EmailConfig, 'host' | 'port' | 'tls'>;

/** The mail server's origin: scheme, host (lower case), port. */
export function mailOrigin(config: Address): string {
  const host = config.host.trim().toLowerCase();
  return `${config.tls === 'tls' ? 'smtps' : 'smtp'}://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/** The address in words, for messages and the confirmation dialog: "mail.office.test:587 (STARTTLS)". */
export function mailAddressText(config: Address): string {
  const host = config.host.trim();
  return `${host.includes(':') ? `[${host}]` : host}:${config.port} (${config.tls === 'tls' ? 'TLS' : 'STARTTLS'})`;
}

function legacyHost(db: Db): string | null | undefined {
  const row = db
    .prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?')
    .get(LEGACY_HOST_ROW);
  if (!row) return undefined;
  try {
    const value: unknown = JSON.parse(row.value);
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

/** Call before any change: a folder from before the binding keeps what it had confirmed. */
export function ensureMailBound(db: Db): void {
  binding.ensure(db, () => {
    const config = emailConfig(db);
    if (!config) return null;
    const host = legacyHost(db);
    if (host === undefined) return mailOrigin(config);
    return host !== null && host.trim().toLowerCase() === config.host.trim().toLowerCase()
      ? mailOrigin(config)
      : null;
  });
}

/** Whether the stored password may go to the mail server `config`. */
export function passwordMayGoTo(db: Db, config: Address): boolean {
  ensureMailBound(db);
  return binding.mayGoTo(db, mailOrigin(config));
}

/** Binds the password to `config`'s mail server (null: to none). */
export function bindPassword(db: Db, config: Address | null): void {
  binding.bind(db, config ? mailOrigin(config) : null);
}
