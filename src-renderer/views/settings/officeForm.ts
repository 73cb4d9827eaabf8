/**
 * Settings › Office: the join form's address (postgres://user@host[:port]/database with the TLS
 * options as the engine's address rule reads them — never a password, which goes in its own field
 * to the keychain, nor a file: a private CA's certificate is chosen by the host) and the status in
 * plain words. Pure, for the section and its tests.
 */
import type { OfficeStatus } from '../../../src-shared/officeCalls';

export type OfficeForm = {
  host: string;
  port: string;
  database: string;
  user: string;
  password: string;
  /** verify-full: the server's certificate checked (the default); disable: loopback only. */
  tls: 'verify-full' | 'disable';
  /**
   * A private CA signed the server's certificate: its file is chosen by the host when joining
   * (Electron's open dialog; the web host: the file the page uploads). The address never names it.
   */
  privateCa: boolean;
};

export const EMPTY_OFFICE_FORM: OfficeForm = {
  host: '',
  port: '5432',
  database: 'blotter_office',
  user: 'blotter',
  password: '',
  tls: 'verify-full',
  privateCa: false,
};

export type OfficeFormErrors = Partial<Record<'host' | 'port' | 'database' | 'user', string>>;

/** The address to join, or what is missing. */
export function officeUrlOf(f: OfficeForm): { url: string | null; errors: OfficeFormErrors } {
  const errors: OfficeFormErrors = {};
  const host = f.host.trim();
  if (!host) errors.host = 'Enter the office database server (its name or address).';
  else if (/[/@:?#\s]/.test(host) && !/^\[[0-9a-f:]+\]$/i.test(host))
    errors.host = 'Enter only the server’s name or address.';
  const port = Number(f.port.trim() || '5432');
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    errors.port = 'A port is a number from 1 to 65535.';
  if (!f.database.trim()) errors.database = 'Enter the database name.';
  if (!f.user.trim()) errors.user = 'Enter the database role Blotter logs in as.';
  if (Object.keys(errors).length > 0) return { url: null, errors };
  const q = new URLSearchParams();
  if (f.tls === 'disable') q.set('sslmode', 'disable');
  const query = q.toString();
  return {
    url: `postgres://${encodeURIComponent(f.user.trim())}@${host}:${port}/${encodeURIComponent(f.database.trim())}${query ? `?${query}` : ''}`,
    errors,
  };
}

const seconds = (ms: number) => `${Math.max(0, Math.round(ms / 1000))} s`;

/** The status as lines a person reads: the link, reachability, leaders, budget, lag, last pull. */
export function officeStatusLines(
  s: OfficeStatus,
  areaName: (id: number) => string,
  now: number,
): { text: string; tone: 'ok' | 'warn' }[] {
  if (!s.joined)
    return [{ text: 'This data folder is a standalone archive (not joined to an office).', tone: 'ok' }];
  const lines: { text: string; tone: 'ok' | 'warn' }[] = [{ text: `Joined to ${s.url}.`, tone: 'ok' }];
  if (s.reachable === false)
    lines.push({ text: 'PostgreSQL unreachable: syncs paused, working on the replica.', tone: 'warn' });
  else {
    const mine = (s.leaders ?? []).filter((l) => l.mine);
    const others = (s.leaders ?? []).filter((l) => !l.mine);
    lines.push({
      text:
        mine.length > 0
          ? `This desktop leads the sync of ${mine.map((l) => `${areaName(l.areaId)} (lease for ${seconds(l.expiresInMs)} more)`).join(', ')}.`
          : 'This desktop leads no area’s sync now; it pulls what the leaders write.',
      tone: 'ok',
    });
    for (const l of others)
      lines.push({
        text: `${areaName(l.areaId)}: synced by ${l.holder} (lease for ${seconds(l.expiresInMs)} more).`,
        tone: 'ok',
      });
    if (s.requestsLastMinute !== null && s.requestsLastMinute !== undefined)
      lines.push({
        text: `The office sent ${s.requestsLastMinute} API requests in the last minute.`,
        tone: 'ok',
      });
    if (s.behind !== null && s.behind !== undefined)
      lines.push({
        text:
          s.behind === 0
            ? 'The replica is up to date.'
            : `The replica is ${s.behind} changes behind the office.`,
        tone: 'ok',
      });
  }
  lines.push({
    text:
      s.pulledAt === null
        ? 'Not pulled yet.'
        : `Last pulled ${seconds(now - s.pulledAt)} ago; this replica holds ${s.replicaIncidents} incidents${s.officeIncidents !== null ? ` of the office’s ${s.officeIncidents}` : ''}.`,
    tone: 'ok',
  });
  if (s.skipped && s.skipped.count > 0) {
    const shown = s.skipped.rows.map((r) => `${r.table} ${r.key}: ${r.problem}`).join('; ');
    const more = s.skipped.count - s.skipped.rows.length;
    lines.push({
      text: `${s.skipped.count === 1 ? '1 office row was' : `${s.skipped.count} office rows were`} skipped as unusable (the pull took every other row): ${shown}${more > 0 ? `; and ${more} more` : ''}.`,
      tone: 'warn',
    });
  }
  return lines;
}
