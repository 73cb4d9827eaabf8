/**
 * A real PostgreSQL with PostGIS for the office tests: `initdb` and `pg_ctl` from the Debian
 * packages (postgresql-15, postgresql-15-postgis-3) in a temp folder, on a free loopback port, as
 * a normal user (as root: the `postgres` user, owning the folder), with password (SCRAM) login for
 * an admin role and one database with PostGIS; with `tls`, a certificate for 127.0.0.1 from a
 * test CA (openssl) and `ssl=on`. No mock: when PostgreSQL is not installed the
 * start fails and says what to install.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const BIN = process.env.BLOTTER_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export type TestPostgres = {
  host: string;
  port: number;
  /** The admin role (owns the database) and its password. */
  user: string;
  password: string;
  database: string;
  /** postgres://user@127.0.0.1:port/database — no password in it, as Blotter wants it. */
  url: string;
  /** A client of the admin role, for arranging and inspecting rows. */
  admin(): Promise<pg.Client>;
  stop(): void;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL binary as the folder's owner (root cannot run a server). */
function runAs(user: string | null, bin: string, args: string[]): string {
  const file = join(BIN, bin);
  return user
    ? execFileSync('runuser', ['-u', user, '--', file, ...args], { encoding: 'utf8', stdio: 'pipe' })
    : execFileSync(file, args, { encoding: 'utf8', stdio: 'pipe' });
}

/** A CA and a server certificate for 127.0.0.1 (openssl), in `dir`: what a TLS test server serves. */
function makeCertificates(dir: string): { ca: string; cert: string; key: string } {
  const f = (name: string) => join(dir, name);
  const ssl = (args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  ssl([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=Blotter test CA',
    '-keyout',
    f('ca.key'),
    '-out',
    f('ca.pem'),
  ]);
  ssl([
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=127.0.0.1',
    '-keyout',
    f('server.key'),
    '-out',
    f('server.csr'),
  ]);
  writeFileSync(f('san.ext'), 'subjectAltName = IP:127.0.0.1\n');
  ssl([
    'x509',
    '-req',
    '-in',
    f('server.csr'),
    '-CA',
    f('ca.pem'),
    '-CAkey',
    f('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    f('san.ext'),
    '-out',
    f('server.pem'),
  ]);
  return { ca: f('ca.pem'), cert: f('server.pem'), key: f('server.key') };
}

export async function startTestPostgres(
  database = 'blotter_office',
  options: { tls?: boolean } = {},
): Promise<TestPostgres & { caFile: string | null }> {
  if (!existsSync(join(BIN, 'initdb')) || !existsSync(join(BIN, 'pg_ctl')))
    throw new Error(
      `PostgreSQL is not installed (no ${BIN}/initdb): apt-get install postgresql postgresql-15-postgis-3`,
    );
  const asUser = process.getuid?.() === 0 ? 'postgres' : null;
  const dir = mkdtempSync(join(tmpdir(), 'blotter-pg-'));
  const data = join(dir, 'data');
  const pwfile = join(dir, 'pw');
  const user = 'office_admin';
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  writeFileSync(pwfile, password, { mode: 0o600 });
  const certs = options.tls ? makeCertificates(dir) : null;
  if (asUser) {
    const uid = Number(execFileSync('id', ['-u', asUser], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', asUser], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
    chownSync(pwfile, uid, gid);
    if (certs) for (const file of [certs.cert, certs.key]) chownSync(file, uid, gid);
  }
  runAs(asUser, 'initdb', [
    '-D',
    data,
    '-U',
    user,
    `--pwfile=${pwfile}`,
    '--auth=scram-sha-256',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const port = await freePort();
  const tls = certs ? ` -c ssl=on -c ssl_cert_file=${certs.cert} -c ssl_key_file=${certs.key}` : '';
  const opts = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off -c max_connections=60${tls}`;
  runAs(asUser, 'pg_ctl', ['-D', data, '-o', opts, '-l', join(dir, 'log'), '-w', 'start']);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      runAs(asUser, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const host = '127.0.0.1';
  const client = (db: string) =>
    new pg.Client({
      host,
      port,
      user,
      password,
      database: db,
      ...(certs ? { ssl: { ca: readFileSync(certs.ca, 'utf8') } } : {}),
    });
  try {
    const c = client('postgres');
    await c.connect();
    await c.query(`CREATE DATABASE ${database}`);
    await c.end();
    const d = client(database);
    await d.connect();
    await d.query('CREATE EXTENSION postgis');
    await d.end();
  } catch (e) {
    stop();
    throw e;
  }
  return {
    host,
    port,
    user,
    password,
    database,
    url: `postgres://${user}@${host}:${port}/${database}`,
    caFile: certs?.ca ?? null,
    async admin() {
      const c = client(database);
      await c.connect();
      return c;
    },
    stop,
  };
}
