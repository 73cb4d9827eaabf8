/**
 * Emailed bulletins from cron: `blotter report --send-due` in a cron-like environment (C locale,
 * no TTY, no D-Bus, so no keychain: the mail password from BLOTTER_SMTP_PASSWORD) prints the due
 * schedule's report and mails it, PDF attached, to a loopback SMTP server — exactly once per due
 * time, and a schedule that missed three weeks is caught up once. A schedule made with
 * `report schedule add` waits for its next time.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedDatabase } from '../../bench/seed';
import { setChannel } from '../engine/alerts/channels';
import { bindPassword } from '../engine/alerts/mailAddress';
import { dbFileOf } from '../engine/dataDir';
import { openDatabase } from '../engine/store/database';
import { makeTempDir, type TempDir } from '../engine/testing/tempDir';
import { ROOT, type Ran } from './cliTesting';

vi.setConfig({ testTimeout: 300_000 });

const PASSWORD = 'smtp-pass-Ωx9';
const WEEK = 7 * 86_400_000;
type Mail = { to: string[]; raw: string };

let dir: TempDir;
let data: string;
let smtp: SMTPServer;
let port: number;
const mails: Mail[] = [];
const logins: string[] = [];

function fromCron(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'src-main/cli/main.ts', ...args],
      {
        cwd: ROOT,
        env: {
          PATH: '/usr/bin:/bin',
          HOME: dir.path,
          LANG: 'C',
          LC_ALL: 'C',
          BLOTTER_DATA_DIR: data,
          ...env,
        },
        timeout: 280_000,
        maxBuffer: 64 << 20,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

const last = (text: string) =>
  JSON.parse(text.trim().split('\n').at(-1) as string) as Record<string, unknown>;

/** The schedule's recorded due time moved `weeks` back: as if the folder had missed that many. */
function missWeeks(id: number, weeks: number): void {
  const db = openDatabase(dbFileOf(data));
  try {
    db.prepare('UPDATE report_schedules SET last_due_at = last_due_at - ? WHERE id = ?').run(
      weeks * WEEK,
      id,
    );
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  dir = makeTempDir('blotter-cli-send-');
  data = path.join(dir.path, 'data');
  mkdirSync(data, { mode: 0o700 });
  seedDatabase(dbFileOf(data), { count: 600, seed: 9, days: 60 });
  smtp = new SMTPServer({
    authOptional: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, cb) {
      logins.push(auth.password ?? '');
      if (auth.username === 'analyst' && auth.password === PASSWORD) cb(null, { user: 'analyst' });
      else cb(new Error('bad login'));
    },
    onData(stream, session, cb) {
      let raw = '';
      stream.on('data', (d: Buffer) => (raw += d.toString()));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  port = (smtp.server.address() as AddressInfo).port;
  // The alerts' mail server, its password bound to it (as Alerts › Delivery leaves a folder).
  const db = openDatabase(dbFileOf(data));
  try {
    const config = {
      host: '127.0.0.1',
      port,
      tls: 'starttls' as const,
      user: 'analyst',
      from: 'blotter@office.test',
      to: ['analysts@office.test'],
    };
    setChannel(db, 'email', config, true, Date.now());
    bindPassword(db, { host: config.host, port: config.port, tls: config.tls });
  } finally {
    db.close();
  }
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  dir.remove();
});

/** The PDF attached to a raw message (base64), as bytes. */
function attachedPdf(raw: string): Buffer | null {
  const m = /Content-Type: application\/pdf[^\r\n]*(?:\r?\n[^\r\n]+)*\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(
    raw,
  );
  return m?.[1] ? Buffer.from(m[1].replace(/\s+/g, ''), 'base64') : null;
}

describe('blotter report --send-due', () => {
  it('mails a due schedule once with its PDF, catches up three missed weeks once, from cron with BLOTTER_SMTP_PASSWORD', async () => {
    const added = await fromCron([
      'report',
      'schedule',
      'add',
      '--area-id',
      '1',
      '--weekday',
      'mon',
      '--time',
      '07:00',
      '--paper',
      'a4',
      '--to',
      'chief@office.test',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const schedule = last(added.stdout) as { id: number; zone: string; nextDueAt: number };
    expect(schedule.zone).toBe('America/Chicago');
    expect(schedule.nextDueAt).toBeGreaterThan(Date.now());

    // A new schedule waits for its next Monday: nothing is due yet.
    const early = await fromCron(['report', '--send-due'], { BLOTTER_SMTP_PASSWORD: PASSWORD });
    expect(early.code, early.stderr).toBe(0);
    expect(last(early.stdout)).toMatchObject({ leader: true, sent: 0, failed: 0 });
    expect(mails).toHaveLength(0);

    missWeeks(schedule.id, 3);
    const sent = await fromCron(['report', '--send-due'], { BLOTTER_SMTP_PASSWORD: PASSWORD });
    expect(sent.code, sent.stderr).toBe(0);
    expect(last(sent.stdout)).toMatchObject({ leader: true, sent: 1, failed: 0 });
    expect(mails).toHaveLength(1);
    const mail = mails[0] as Mail;
    expect(mail.to).toEqual(['chief@office.test']);
    expect(mail.raw).toMatch(/Subject: Blotter bulletin: Chicago, \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}/);
    expect(mail.raw).toMatch(new RegExp(`Message-ID: <report-${schedule.id}-\\d+@reports\\.blotter>`));
    const pdf = attachedPdf(mail.raw);
    expect(pdf?.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(logins.at(-1)).toBe(PASSWORD);

    // Sent for that due time: the next look sends nothing, however often cron asks.
    const again = await fromCron(['report', '--send-due'], { BLOTTER_SMTP_PASSWORD: PASSWORD });
    expect(again.code, again.stderr).toBe(0);
    expect(last(again.stdout)).toMatchObject({ sent: 0, failed: 0 });
    expect(mails).toHaveLength(1);

    const listed = await fromCron(['report', 'schedule', 'list']);
    const [view] = (
      last(listed.stdout) as { schedules: { lastSentAt: number | null; lastError: string | null }[] }
    ).schedules;
    expect(view?.lastSentAt).toBeGreaterThan(0);
    expect(view?.lastError).toBeNull();
  });

  it('a refused login is said and recorded (the password never printed), and the schedule stays due until it is sent', async () => {
    const added = await fromCron(['report', 'schedule', 'add', '--area-id', '2']);
    const { id } = last(added.stdout) as { id: number };
    missWeeks(id, 1);
    const before = mails.length;
    const r = await fromCron(['report', '--send-due'], { BLOTTER_SMTP_PASSWORD: 'wrong-password' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`schedule ${id}`);
    expect(r.stderr).toContain('not sent');
    expect(r.stderr).not.toContain('wrong-password');
    expect(mails.length).toBe(before);
    const retried = await fromCron(['report', '--send-due'], { BLOTTER_SMTP_PASSWORD: PASSWORD });
    expect(retried.code, retried.stderr).toBe(0);
    expect(last(retried.stdout)).toMatchObject({ sent: 1 });
    expect(mails.length).toBe(before + 1);
  });

  it('a schedule for one feature of a layer (--layer --feature) mails a bulletin of that feature only', async () => {
    // A "Beats" layer with one square beat in the middle of area 1, as `layers import` leaves it.
    const db = openDatabase(dbFileOf(data));
    try {
      const c = db
        .prepare<[], { lat: number; lon: number }>(
          'SELECT center_lat AS lat, center_lon AS lon FROM areas WHERE id = 1',
        )
        .get() as { lat: number; lon: number };
      const layerId = Number(
        db
          .prepare(
            `INSERT INTO reference_layers (name, name_field, source_name, source_format, crs, created_at)
             VALUES ('Beats', 'name', 'beats.geojson', 'geojson', 'EPSG:4326', 0)`,
          )
          .run().lastInsertRowid,
      );
      const d = 0.03;
      const ring = [
        [c.lat - d, c.lon - d],
        [c.lat - d, c.lon + d],
        [c.lat + d, c.lon + d],
        [c.lat + d, c.lon - d],
        [c.lat - d, c.lon - d],
      ];
      db.prepare(
        `INSERT INTO reference_features (layer_id, ordinal, name, kind, properties, geometry, min_lat, min_lon, max_lat, max_lon)
         VALUES (?, 1, 'Beat 1234', 'polygons', '{"name":"Beat 1234"}', ?, ?, ?, ?, ?)`,
      ).run(
        layerId,
        JSON.stringify({ kind: 'polygons', polygons: [[ring]] }),
        c.lat - d,
        c.lon - d,
        c.lat + d,
        c.lon + d,
      );
    } finally {
      db.close();
    }
    const bad = await fromCron(['report', 'schedule', 'add', '--layer', 'Beats', '--feature', 'Beat 9']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Beat 1234');
    const added = await fromCron([
      'report',
      'schedule',
      'add',
      '--layer',
      'beats',
      '--feature',
      'beat 1234',
      '--to',
      'beat@office.test',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const schedule = last(added.stdout) as {
      id: number;
      areaId: number | null;
      zone: string;
      feature: unknown;
    };
    expect(schedule).toMatchObject({
      areaId: null,
      zone: 'America/Chicago',
      feature: { layerName: 'Beats', featureName: 'Beat 1234' },
    });
    missWeeks(schedule.id, 1);
    const before = mails.length;
    const sent = await fromCron(['report', '--send-due'], { BLOTTER_SMTP_PASSWORD: PASSWORD });
    expect(sent.code, sent.stderr).toBe(0);
    expect(last(sent.stdout)).toMatchObject({ sent: 1, failed: 0 });
    expect(mails).toHaveLength(before + 1);
    const mail = mails.at(-1) as Mail;
    expect(mail.to).toEqual(['beat@office.test']);
    expect(mail.raw).toMatch(/Subject: Blotter bulletin: Beats: Beat 1234, /);
    // The same week as area 1's bulletin above, fewer incidents: the beat's only.
    const text = (m: Mail) => {
      const file = path.join(dir.path, `mail-${mails.indexOf(m)}.pdf`);
      writeFileSync(file, attachedPdf(m.raw) as Buffer);
      return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    };
    const incidents = (t: string) =>
      Number(/([\d,]+) incidents · Prepared/.exec(t)?.[1]?.replace(/,/g, '') ?? NaN);
    const beat = text(mail);
    const area = text(mails[0] as Mail);
    expect(beat).toContain('Beat 1234');
    expect(incidents(beat)).toBeGreaterThan(0);
    expect(incidents(beat)).toBeLessThan(incidents(area));
  });
});
