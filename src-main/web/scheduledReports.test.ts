/**
 * Emailed bulletins while Blotter is open: the web host around an engine whose timer finds a due
 * schedule prints its report through the host's own print path (headless Chromium, the built
 * report page) and mails it, PDF attached, to a loopback SMTP server — once, with no command run.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../../scripts/web.mjs';
import { seedDatabase } from '../../bench/seed';
import { setChannel, smtpPasswordAccount } from '../engine/alerts/channels';
import { bindPassword } from '../engine/alerts/mailAddress';
import { dbFileOf } from '../engine/dataDir';
import { createInProcessEngine, type EngineHandle } from '../engine/index';
import { createMemorySecretStore } from '../engine/secrets/memorySecretStore';
import { createSettingsRepo } from '../engine/store/settingsRepo';
import { openDatabase } from '../engine/store/database';
import { makeTempDir, type TempDir } from '../engine/testing/tempDir';
import { startWebHost, type WebHost } from './server';

const PASSWORD = 'open-app-pass';
let dir: TempDir;
let smtp: SMTPServer;
let engine: EngineHandle | null = null;
let host: WebHost | null = null;
const mails: string[] = [];

beforeAll(async () => {
  ensureBuilt('test:');
  dir = makeTempDir('blotter-web-schedules-');
  smtp = new SMTPServer({
    authOptional: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth: (auth, _s, cb) =>
      auth.password === PASSWORD ? cb(null, { user: 'analyst' }) : cb(new Error('bad login')),
    onData(stream, _session, cb) {
      let raw = '';
      stream.on('data', (d: Buffer) => (raw += d.toString()));
      stream.on('end', () => {
        mails.push(raw);
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
}, 300_000);
afterAll(async () => {
  await host?.close();
  await engine?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  dir.remove();
});

it('the engine’s timer finds the missed Monday and the web host mails its report once', async () => {
  const data = path.join(dir.path, 'data');
  mkdirSync(data, { mode: 0o700 });
  seedDatabase(dbFileOf(data), { count: 400, seed: 4, days: 40 });
  const secrets = createMemorySecretStore();
  const db = openDatabase(dbFileOf(data));
  try {
    const config = {
      host: '127.0.0.1',
      port: (smtp.server.address() as AddressInfo).port,
      tls: 'starttls' as const,
      user: 'analyst',
      from: 'blotter@office.test',
      to: ['analysts@office.test'],
    };
    setChannel(db, 'email', config, false, Date.now());
    bindPassword(db, config);
    await secrets.set(smtpPasswordAccount(createSettingsRepo(db).profileId()), PASSWORD);
    // A schedule whose last send was two weeks ago: this week's time has passed unsent.
    db.prepare(
      `INSERT INTO report_schedules (area_id, weekday, time, paper, created_at, last_due_at)
       VALUES (1, 1, '07:00', 'letter', ?, ?)`,
    ).run(Date.now() - 30 * 86_400_000, Date.now() - 14 * 86_400_000);
  } finally {
    db.close();
  }
  engine = await createInProcessEngine({
    dataDir: data,
    host: 'web',
    version: 'test',
    secrets,
    logFile: null,
  });
  const renderer = path.join(ROOT, 'out', 'renderer');
  expect(existsSync(renderer)).toBe(true);
  host = await startWebHost({ engine, rendererDir: renderer });

  const deadline = Date.now() + 120_000;
  while (mails.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  expect(mails).toHaveLength(1);
  expect(mails[0]).toMatch(/Subject: Blotter bulletin: Chicago/);
  expect(mails[0]).toMatch(/Content-Type: application\/pdf; name=bulletin-\d{4}-\d{2}-\d{2}\.pdf/);
  // The next looks find it sent.
  await new Promise((r) => setTimeout(r, 3_000));
  expect(mails).toHaveLength(1);
  const listed = await engine.call('listReportSchedules', {});
  expect(listed.ok && listed.value.schedules[0]?.lastSentAt).toBeGreaterThan(0);
}, 300_000);
