/**
 * The office database's address, judged before anything is sent (DESIGN: outbound addresses):
 * `postgres://user@host[:port]/database[?sslmode=…&sslrootcert=FILE]`.
 * - A password written in the URL is refused: argv and settings files are readable by others; the
 *   password lives in the keychain (officeSecrets.ts).
 * - TLS with a verified certificate (`verify-full`, the default) everywhere except on a literal
 *   loopback address (127.x, ::1, localhost as written: src-shared/outboundRule.ts), where `sslmode=disable` (the default there) is allowed.
 *   `require` (TLS without checking who answers) is refused: it protects nothing against the
 *   one attack TLS is for here. A private CA is given with `sslrootcert=FILE`: on the CLI as
 *   written; from a page never (the host chooses the file and the engine names its copy:
 *   caCertificate.ts).
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { isLiteralLoopback } from '../../../src-shared/outboundRule';

export class OfficeUrlError extends Error {
  override name = 'OfficeUrlError';
}

export type OfficeAddress = {
  host: string;
  port: number;
  user: string;
  database: string;
  tls: 'disable' | 'verify-full';
  rootCertFile: string | null;
  /** The URL as stored and shown: no password, ever. */
  url: string;
};

export function parseOfficeUrl(text: string): OfficeAddress {
  let u: URL;
  try {
    u = new URL(text.trim());
  } catch {
    throw new OfficeUrlError('The office database address is not a URL (postgres://user@host/database).');
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:')
    throw new OfficeUrlError('The office database address must start with postgres://.');
  if (u.password)
    throw new OfficeUrlError(
      'Do not write the password in the address (other users can read command lines): give it in PGPASSWORD, ~/.pgpass or on standard input.',
    );
  const user = decodeURIComponent(u.username);
  const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host || !user || !database || database.includes('/'))
    throw new OfficeUrlError(
      'The office database address needs a user, a host and a database: postgres://user@host/database.',
    );
  const port = u.port ? Number(u.port) : 5432;
  const loopback = isLiteralLoopback(host);
  let tls: OfficeAddress['tls'] = loopback ? 'disable' : 'verify-full';
  let rootCertFile: string | null = null;
  for (const [k, v] of u.searchParams) {
    if (k === 'sslmode' && (v === 'disable' || v === 'verify-full')) tls = v;
    else if (k === 'sslmode' && v === 'require')
      throw new OfficeUrlError(
        'sslmode=require does not check the server certificate: use verify-full (and sslrootcert=FILE for a private CA).',
      );
    else if (k === 'sslrootcert') rootCertFile = v;
    else throw new OfficeUrlError(`The office database address has an unknown parameter: ${k}.`);
  }
  if (tls === 'disable' && !loopback)
    throw new OfficeUrlError(
      `Blotter talks to ${host} only over TLS: sslmode=disable is allowed on a loopback address only.`,
    );
  const params = new URLSearchParams();
  if (u.searchParams.has('sslmode')) params.set('sslmode', tls);
  if (rootCertFile) params.set('sslrootcert', rootCertFile);
  const query = params.size ? `?${params}` : '';
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return {
    host,
    port,
    user,
    database,
    tls,
    rootCertFile,
    url: `postgres://${encodeURIComponent(user)}@${hostPart}:${port}/${encodeURIComponent(database)}${query}`,
  };
}

/** The `ssl` option of a pg connection for this address. */
export function sslOption(
  address: OfficeAddress,
): false | { rejectUnauthorized: true; ca?: string; servername?: string } {
  if (address.tls === 'disable') return false;
  return {
    rejectUnauthorized: true,
    ...(address.rootCertFile ? { ca: readRootCert(address.rootCertFile) } : {}),
  };
}

/** A CA certificate bundle is a few kB; more is not one. */
const MAX_ROOT_CERT_BYTES = 1024 * 1024;

/**
 * The `sslrootcert` file's PEM text (also a CA file a host chose: caCertificate.ts). A page cannot
 * name the path (the hosts refuse it), but a CLI user's typo or an address stored before that rule
 * may name anything, so only a regular file of at most 1 MB holding a PEM certificate is read: a
 * FIFO (opened without blocking), a device such as /dev/zero, or any other file is refused without
 * reading it or echoing what it holds.
 */
export function readRootCert(file: string): string {
  const notOne = () =>
    new OfficeUrlError(
      `sslrootcert must name a PEM certificate file (-----BEGIN CERTIFICATE-----, at most 1 MB); ${file} is not one.`,
    );
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    throw new OfficeUrlError(`The CA certificate file ${file} cannot be opened on this computer.`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_ROOT_CERT_BYTES) throw notOne();
    const text = readFileSync(fd, 'utf8');
    if (!text.includes('-----BEGIN CERTIFICATE-----')) throw notOne();
    return text;
  } finally {
    closeSync(fd);
  }
}
