/**
 * `office join|status|leave`: office mode through the engine's contract calls, like the app's
 * Settings › Office. The password never comes on the command line (argv is readable by every
 * local user; an address carrying one is refused): PGPASSWORD, else the matching ~/.pgpass
 * (PGPASSFILE) line, else standard input with --password-stdin; the engine keeps it in the
 * keychain for this data folder. The last stdout line is JSON; exit 8 when the office database
 * cannot be reached.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { one, UsageError, type Parsed } from './args';
import { EXIT, type Io } from './io';
import { withSession, type Session } from './session';

export const OFFICE_FLAGS = {
  values: ['data-dir', 'pg'],
  booleans: ['password-stdin', 'replace-local', 'seed', 'help'],
  words: 1,
};

/** The password of a ~/.pgpass line matching host, port, database and user (`*` matches any). */
export function pgpassPassword(
  text: string,
  want: { host: string; port: number; database: string; user: string },
): string | null {
  for (const line of text.split(/\r?\n/)) {
    if (!line || line.startsWith('#')) continue;
    const fields: string[] = [];
    let cur = '';
    for (let i = 0; i < line.length; i++) {
      const ch = line[i]!;
      if (ch === '\\' && i + 1 < line.length) cur += line[++i];
      else if (ch === ':' && fields.length < 4) {
        fields.push(cur);
        cur = '';
      } else cur += ch;
    }
    fields.push(cur);
    if (fields.length !== 5) continue;
    const [host, port, database, user, password] = fields as [string, string, string, string, string];
    const ok = (pattern: string, value: string) => pattern === '*' || pattern === value;
    if (
      ok(host, want.host) &&
      ok(port, String(want.port)) &&
      ok(database, want.database) &&
      ok(user, want.user)
    )
      return password;
  }
  return null;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function passwordFor(url: string, fromStdin: boolean): Promise<string | null> {
  if (fromStdin) return (await readStdin()).replace(/\r?\n$/, '');
  if (process.env.PGPASSWORD) return process.env.PGPASSWORD;
  // Only to find the ~/.pgpass line: the engine judges the address (and refuses a bad one).
  let address: { host: string; port: number; database: string; user: string };
  try {
    const u = new URL(url);
    address = {
      host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: u.port ? Number(u.port) : 5432,
      database: decodeURIComponent(u.pathname.slice(1)),
      user: decodeURIComponent(u.username),
    };
  } catch {
    return null;
  }
  const file = process.env.PGPASSFILE ?? join(homedir(), '.pgpass');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  return pgpassPassword(text, address);
}

/** A pull's progress line: rows of the total at each whole ten percent (`office: pulled 40% …`). */
export function pullProgressLine(rows: number, total: number | null): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return total
    ? `office: pulled ${Math.floor((rows / total) * 100)}% (${n(rows)} of ${n(total)} rows)\n`
    : `office: pulled ${n(rows)} rows\n`;
}

/** Runs a call that pulls with its progress on stderr, and ^C cancelling the pull (exit 130). */
async function followPull<T>(s: Session, io: Io, call: () => Promise<T>): Promise<T> {
  let lastTen = 0;
  const unsubscribe = s.onEvent((e) => {
    if (e.type !== 'officePullProgress' || e.state !== 'running') return;
    const ten = e.total ? Math.floor((e.rows / e.total) * 10) : lastTen + 1;
    if (ten <= lastTen) return;
    lastTen = ten;
    io.err(pullProgressLine(e.rows, e.total));
  });
  const onSignal = (): void => void s.call('cancelOfficePull', {}).catch(() => undefined);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await call();
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    unsubscribe();
  }
}

export async function officeCommand(p: Parsed, io: Io): Promise<number> {
  const [sub] = p.words;
  if (sub !== 'join' && sub !== 'status' && sub !== 'leave')
    throw new UsageError('Say what to do: blotter office join --pg URL | status | leave.');
  return withSession(io, one(p, 'data-dir'), async (s) => {
    if (sub === 'join') {
      const url = one(p, 'pg', true);
      const password = await passwordFor(url, p.flags.has('password-stdin'));
      const { status, pulled } = await followPull(s, io, () =>
        s.call('joinOffice', {
          url,
          password,
          replaceLocal: p.flags.has('replace-local'),
          seed: p.flags.has('seed'),
        }),
      );
      io.err(
        `office: joined ${status.url} (schema ${status.schemaVersion}); pulled ${pulled.incidents} incidents, ` +
          `${pulled.areas} areas, ${pulled.coverage} coverage days, ${pulled.deletions} deletions.\n`,
      );
      io.out(JSON.stringify({ joined: true, url: status.url, officeId: status.officeId, pulled }) + '\n');
      return EXIT.ok;
    }
    if (sub === 'status') {
      const status = await s.call('getOfficeStatus', {});
      if (!status.joined) io.err('office: this data folder is a standalone archive (not joined).\n');
      else if (!status.reachable) io.err(`office: ${status.problem}\n`);
      else
        io.err(
          `office: ${status.url}: ${status.officeIncidents} incidents in the office archive, ` +
            `${status.replicaIncidents} in this replica; leader: ${status.leader?.holder ?? 'none'}.\n`,
        );
      if (status.skipped && status.skipped.count > 0)
        io.err(
          `office: ${status.skipped.count} office row(s) skipped by the pull (values Blotter never writes; fix them in the office database and the next pull takes them): ` +
            status.skipped.rows.map((r) => `${r.table} ${r.key} (${r.problem})`).join('; ') +
            '.\n',
        );
      io.out(JSON.stringify(status) + '\n');
      return status.joined && status.reachable === false ? EXIT.officeUnreachable : EXIT.ok;
    }
    const left = await s.call('leaveOffice', {});
    io.err(
      left.left
        ? `office: left; the ${left.replicaIncidents} incidents stay as this folder's standalone archive.\n`
        : 'office: this data folder was not joined to an office.\n',
    );
    io.out(JSON.stringify(left) + '\n');
    return EXIT.ok;
  });
}
