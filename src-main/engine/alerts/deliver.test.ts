import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../log';
import { createMemorySecretStore } from '../secrets/memorySecretStore';
import { setChannel, smtpPasswordAccount, webhookAccount } from './channels';
import { createAlertDelivery } from './deliver';
import { listAlerts } from './inbox';
import { createRuleStore } from './rules';
import { addArea, cdid, commit, craftedArchive, HOUR, T0, type Crafted } from './testing/crafted';

let c: Crafted | null = null;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  c?.close();
  c = null;
});

const PROFILE = 'profile-1';

/** An archive with one rule, channels set up by `channels`, and one alert raised (its deliveries queued). */
function archiveWithAlert(channels: (db: Crafted['db']) => void) {
  c = craftedArchive();
  const areaId = addArea(c.db);
  createRuleStore(c.db).add({ name: 'Burglaries', areaId, condition: { kind: 'any' } }, 0);
  channels(c.db);
  const [raised] = commit(c.db, areaId, T0, [{ cdid: cdid(), at: T0 - HOUR }]);
  if (!raised) throw new Error('no alert');
  return { db: c.db, raised };
}

function delivery(
  db: Crafted['db'],
  secrets: ReturnType<typeof createMemorySecretStore>,
  clock: { now: number },
) {
  return createAlertDelivery({
    db,
    secrets,
    profileId: PROFILE,
    fetch: (u, i) => fetch(u, i),
    now: () => clock.now,
    log: createLogger('alerts-test'),
  });
}

const log = (db: Crafted['db']) =>
  db.prepare('SELECT ok, error FROM alert_delivery_log ORDER BY id').all() as {
    ok: number;
    error: string | null;
  }[];

describe('webhook delivery', () => {
  it('POSTs the JSON payload with the alert id as idempotency key, retries after a failure, and never names the URL', async () => {
    const received: { headers: IncomingMessage['headers']; body: unknown }[] = [];
    const answers = [503, 200];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body: JSON.parse(body) });
        res.statusCode = answers.shift() ?? 200;
        res.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => server.close(() => r())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/T000/B000/secret-token-xyz`;

    const { db, raised } = archiveWithAlert((d) => setChannel(d, 'webhook', {}, true, 0));
    const secrets = createMemorySecretStore();
    await secrets.set(webhookAccount(PROFILE), url);
    const clock = { now: T0 };
    const d = delivery(db, secrets, clock);

    expect(await d.runDue()).toEqual({ delivered: 0, failed: 1 });
    let [alert] = listAlerts(db);
    expect(alert?.deliveries[0]).toMatchObject({ channel: 'webhook', state: 'pending', attempts: 1 });
    expect(alert?.deliveries[0]?.lastError).toMatch(/HTTP 503/);
    // Not due yet: nothing is sent.
    expect(await d.runDue()).toEqual({ delivered: 0, failed: 0 });
    clock.now = alert?.deliveries[0]?.nextAttemptAt ?? 0;
    expect(await d.runDue()).toEqual({ delivered: 1, failed: 0 });
    [alert] = listAlerts(db);
    expect(alert?.deliveries[0]).toMatchObject({ state: 'delivered', attempts: 2, lastError: null });

    expect(received).toHaveLength(2);
    for (const r of received) {
      expect(r.headers['idempotency-key']).toBe(raised.uid);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.body).toMatchObject({
        id: raised.uid,
        rule: { name: 'Burglaries' },
        incidents: [{ cdid: raised.incidents[0] }],
      });
    }
    for (const row of log(db)) expect(row.error ?? '').not.toMatch(/secret-token|hooks/);
  });

  it('refuses a plain-http webhook off loopback without sending, and shows why', async () => {
    const { db } = archiveWithAlert((d) => setChannel(d, 'webhook', {}, true, 0));
    const secrets = createMemorySecretStore();
    await secrets.set(webhookAccount(PROFILE), 'http://hooks.example.com/abc-secret-path');
    let called = 0;
    const d = createAlertDelivery({
      db,
      secrets,
      profileId: PROFILE,
      fetch: async () => {
        called++;
        return new Response('');
      },
      now: () => T0,
      log: createLogger('alerts-test'),
    });
    expect(await d.runDue()).toEqual({ delivered: 0, failed: 1 });
    expect(called).toBe(0);
    const [alert] = listAlerts(db);
    expect(alert?.deliveries[0]).toMatchObject({ state: 'failed' });
    expect(alert?.deliveries[0]?.lastError).toMatch(/https/);
    expect(alert?.deliveries[0]?.lastError).not.toMatch(/abc-secret-path/);
  });
});

describe('email delivery', () => {
  it('sends through a real SMTP server on loopback with a Message-ID from the alert id, after a refused first try', async () => {
    const messages: { from: string; to: string[]; raw: string }[] = [];
    let refuse = 1;
    const smtp = new SMTPServer({
      authOptional: false,
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      onAuth(auth, _session, cb) {
        if (auth.username === 'analyst' && auth.password === 'smtp-pass-123') cb(null, { user: 'analyst' });
        else cb(new Error('bad login'));
      },
      onData(stream, session, cb) {
        let raw = '';
        stream.on('data', (d: Buffer) => (raw += d.toString()));
        stream.on('end', () => {
          if (refuse-- > 0) {
            const e = new Error('mailbox busy, try later') as Error & { responseCode: number };
            e.responseCode = 451;
            return cb(e);
          }
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
          });
          cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => smtp.close(() => r())));
    const port = (smtp.server.address() as AddressInfo).port;

    const { db, raised } = archiveWithAlert((d) =>
      setChannel(
        d,
        'email',
        { host: '127.0.0.1', port, user: 'analyst', from: 'blotter@office.test', to: ['duty@office.test'] },
        true,
        0,
      ),
    );
    const secrets = createMemorySecretStore();
    await secrets.set(smtpPasswordAccount(PROFILE), 'smtp-pass-123');
    const clock = { now: T0 };
    const d = delivery(db, secrets, clock);

    expect(await d.runDue()).toEqual({ delivered: 0, failed: 1 });
    let [alert] = listAlerts(db);
    expect(alert?.deliveries[0]).toMatchObject({ channel: 'email', state: 'pending', attempts: 1 });
    expect(alert?.deliveries[0]?.lastError).toMatch(/busy/);
    clock.now = alert?.deliveries[0]?.nextAttemptAt ?? 0;
    expect(await d.runDue()).toEqual({ delivered: 1, failed: 0 });
    [alert] = listAlerts(db);
    expect(alert?.deliveries[0]).toMatchObject({ state: 'delivered', attempts: 2 });

    expect(messages).toHaveLength(1);
    const m = messages[0];
    expect(m?.to).toEqual(['duty@office.test']);
    expect(m?.raw).toMatch(new RegExp(`Message-ID: <${raised.uid}@alerts\\.blotter>`, 'i'));
    expect(m?.raw).toMatch(/^Subject: /m);
    expect(m?.raw).toMatch(/Burglaries/);
    for (const row of log(db)) expect(row.error ?? '').not.toMatch(/smtp-pass-123/);
  });

  it('requires STARTTLS with a verified certificate off loopback', async () => {
    const { smtpTransport } = await import('./email');
    const t = smtpTransport(
      {
        host: 'mail.office.test',
        port: 587,
        tls: 'starttls',
        user: null,
        from: 'a@b.c',
        to: ['d@e.f'],
        mode: 'immediate',
        digestHour: 7,
      },
      null,
    ) as unknown as { options: { requireTLS?: boolean; tls?: { rejectUnauthorized?: boolean } } };
    expect(t.options.requireTLS).toBe(true);
    expect(t.options.tls?.rejectUnauthorized).toBe(true);
    expect(() =>
      smtpTransport(
        {
          host: 'smtp://x',
          port: 25,
          tls: 'starttls',
          user: null,
          from: 'a@b.c',
          to: ['d@e.f'],
          mode: 'immediate',
          digestHour: 7,
        },
        null,
      ),
    ).toThrow(/not a host name/);
  });

  it('never sends the password to another port of the same host: the mail server is its whole address', async () => {
    // Two servers on one host, each recording the passwords it is given (AUTH PLAIN, plain SMTP).
    const servers = await Promise.all([recordingSmtp(), recordingSmtp()]);
    const [a, b] = servers as [RecordingSmtp, RecordingSmtp];
    c = craftedArchive();
    const db = c.db;
    const areaId = addArea(db);
    createRuleStore(db).add({ name: 'Burglaries', areaId, condition: { kind: 'any' } }, 0);
    const config = (port: number) => ({
      host: '127.0.0.1',
      port,
      user: 'analyst',
      from: 'blotter@office.test',
      to: ['duty@office.test'],
    });
    setChannel(db, 'email', config(a.port), true, 0);
    const secrets = createMemorySecretStore();
    await secrets.set(smtpPasswordAccount(PROFILE), 'smtp-pass-123');
    const clock = { now: T0 };
    const d = delivery(db, secrets, clock);

    commit(db, areaId, T0, [{ cdid: cdid(), at: T0 - HOUR }]);
    expect(await d.runDue()).toEqual({ delivered: 1, failed: 0 });
    expect(a.passwords).toEqual(['smtp-pass-123']);

    // The mail server moves to port B without the password being typed again (any path: the
    // settings table is all the worker reads).
    setChannel(db, 'email', config(b.port), true, 0);
    commit(db, areaId, T0 + HOUR, [{ cdid: cdid(), at: T0 }]);
    clock.now = T0 + HOUR;
    expect(await d.runDue()).toEqual({ delivered: 0, failed: 1 });
    expect(b.passwords).toEqual([]);
    expect(b.messages).toBe(0);
    expect(log(db).at(-1)?.error).toMatch(
      new RegExp(`not been confirmed for 127\\.0\\.0\\.1:${b.port} \\(STARTTLS\\)`),
    );
  });
});

type RecordingSmtp = { port: number; passwords: string[]; messages: number };

/** An SMTP server on loopback that accepts any sign-in and records the passwords it was sent. */
async function recordingSmtp(): Promise<RecordingSmtp> {
  const got: RecordingSmtp = { port: 0, passwords: [], messages: 0 };
  const smtp = new SMTPServer({
    authOptional: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, cb) {
      got.passwords.push(auth.password ?? '');
      cb(null, { user: auth.username });
    },
    onData(stream, _session, cb) {
      stream.resume();
      stream.on('end', () => {
        got.messages++;
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => smtp.close(() => r())));
  got.port = (smtp.server.address() as AddressInfo).port;
  return got;
}
