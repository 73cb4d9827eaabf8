/**
 * Report schedules: due times in the area's zone (a DST change moves the instant, never the 07:00),
 * the week a send prints, a new schedule waiting for its next time, a missed stretch caught up
 * once, the claim between two processes, and office mode: on two desktops of one office (a real
 * PostgreSQL), only the report-mail leader gets due schedules or says `reportsDue`.
 */
import { DateTime } from 'luxon';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src-shared/contract';
import { setChannel } from '../alerts/channels';
import type { MailTransport } from '../alerts/email';
import { addArea, craftedArchive, type Crafted } from '../alerts/testing/crafted';
import type { EngineCore } from '../core';
import type { ExportJobs } from '../export/jobs';
import { createLogger } from '../log';
import { migrateOffice } from '../office/migrate';
import { openOfficePool } from '../office/officeDb';
import { parseOfficeUrl } from '../office/officeUrl';
import { startTestPostgres, type TestPostgres } from '../office/pgTesting';
import { linkOffice } from '../office/replica';
import { createOfficeService, officePasswordAccount } from '../office/service';
import { createMemorySecretStore } from '../secrets/memorySecretStore';
import { createSettingsRepo } from '../store/settingsRepo';
import { bulletinWeek, latestDueAt, nextDueAt } from './due';
import { createReportScheduleService } from './service';
import { CLAIM_MS, createScheduleStore } from './store';

const CHICAGO = { lat: 41.8781, lon: -87.6298 };
const DENVER = { lat: 39.7392, lon: -104.9903 };

/** A boundary layer "Beats" with one square feature around `at` (as layerStore writes them). */
function addBeat(db: Crafted['db'], name: string, at: { lat: number; lon: number }) {
  const layerId = Number(
    db
      .prepare(
        `INSERT INTO reference_layers (name, name_field, source_name, source_format, crs, created_at)
         VALUES ('Beats', 'name', 'beats.geojson', 'geojson', 'EPSG:4326', 0)`,
      )
      .run().lastInsertRowid,
  );
  const d = 0.01;
  const ring = [
    [at.lat - d, at.lon - d],
    [at.lat - d, at.lon + d],
    [at.lat + d, at.lon + d],
    [at.lat + d, at.lon - d],
    [at.lat - d, at.lon - d],
  ];
  const featureId = Number(
    db
      .prepare(
        `INSERT INTO reference_features (layer_id, ordinal, name, kind, properties, geometry, min_lat, min_lon, max_lat, max_lon)
         VALUES (?, 1, ?, 'polygons', '{}', ?, ?, ?, ?, ?)`,
      )
      .run(
        layerId,
        name,
        JSON.stringify({ kind: 'polygons', polygons: [[ring]] }),
        at.lat - d,
        at.lon - d,
        at.lat + d,
        at.lon + d,
      ).lastInsertRowid,
  );
  return { layerId, featureId };
}
const ms = (iso: string): number => DateTime.fromISO(iso, { setZone: true }).toMillis();
const DAY = 86_400_000;

describe('due times', () => {
  const monday7 = { weekday: 1, time: '07:00', zone: 'America/Chicago' };

  it('is the latest Monday 07:00 local at or before now, in CST and CDT alike', () => {
    // DST began Sunday 2025-03-09: Monday the 3rd 07:00 is 13:00Z, Monday the 10th 07:00 is 12:00Z.
    expect(latestDueAt(monday7, ms('2025-03-10T11:59:00Z'))).toBe(ms('2025-03-03T13:00:00Z'));
    expect(latestDueAt(monday7, ms('2025-03-10T12:00:00Z'))).toBe(ms('2025-03-10T12:00:00Z'));
    expect(latestDueAt(monday7, ms('2025-03-16T23:00:00Z'))).toBe(ms('2025-03-10T12:00:00Z'));
    expect(nextDueAt(monday7, ms('2025-03-05T00:00:00Z'))).toBe(ms('2025-03-10T12:00:00Z'));
    // Across the year's end, a Wednesday schedule.
    const wed = { weekday: 3, time: '18:30', zone: 'America/Chicago' };
    expect(latestDueAt(wed, ms('2026-01-02T12:00:00Z'))).toBe(ms('2025-12-31T18:30:00-06:00'));
  });

  it('prints the seven local days before the due day', () => {
    expect(bulletinWeek(monday7, ms('2025-03-10T12:00:00Z'))).toEqual({
      from: '2025-03-03',
      to: '2025-03-09',
    });
  });
});

describe('the schedule store and service', () => {
  let c: Crafted | null = null;
  afterEach(() => {
    c?.close();
    c = null;
  });

  function service(
    now: { t: number },
    leads = true,
    more: { exports?: ExportJobs; transport?: () => MailTransport } = {},
  ) {
    c = craftedArchive();
    const areaId = addArea(c.db, { at: CHICAGO, name: 'Loop' });
    const events: EngineEvent[] = [];
    const core = {
      db: c.db,
      host: 'web',
      secrets: createMemorySecretStore(),
      settings: createSettingsRepo(c.db),
      log: createLogger('test'),
      emit: (e: EngineEvent) => events.push(e),
    } as unknown as EngineCore;
    const s = createReportScheduleService(core, {
      exports: more.exports ?? ({} as ExportJobs),
      leads: async () => leads,
      now: () => now.t,
      ...(more.transport ? { transport: more.transport } : {}),
    });
    return { s, areaId, events, db: c.db, store: createScheduleStore(c.db) };
  }

  it('a new schedule waits for its next time; three missed weeks are one send, the latest', async () => {
    const now = { t: ms('2025-03-12T15:00:00Z') }; // a Wednesday
    const { s, areaId, events, store } = service(now);
    const saved = s.save(undefined, { areaId, weekday: 1, time: '07:00', paper: 'a4' });
    expect(saved.zone).toBe('America/Chicago');
    expect(saved.nextDueAt).toBe(ms('2025-03-17T12:00:00Z'));
    expect(await s.check()).toBe(0);
    expect((await s.claimDue()).due).toEqual([]);

    now.t = ms('2025-04-02T15:00:00Z'); // three Mondays later
    expect(await s.check()).toBe(1);
    expect(events).toEqual([{ type: 'reportsDue', count: 1 }]);
    const { due, leader } = await s.claimDue();
    expect(leader).toBe(true);
    expect(due).toEqual([
      {
        scheduleId: saved.id,
        dueAt: ms('2025-03-31T12:00:00Z'),
        filters: { area: { areaId }, from: '2025-03-24', to: '2025-03-30' },
        report: { asOf: '2025-03-30', paper: 'a4' },
      },
    ]);
    // Claimed: a second process (cron beside the app) gets nothing meanwhile.
    expect((await s.claimDue()).due).toEqual([]);
    store.sent(saved.id, ms('2025-03-31T12:00:00Z'), now.t);
    now.t += CLAIM_MS + 1;
    expect((await s.claimDue()).due).toEqual([]);
    expect(await s.check()).toBe(0);
    // The next Monday is due again, once.
    now.t = ms('2025-04-07T12:00:00Z');
    expect((await s.claimDue()).due.map((d) => d.dueAt)).toEqual([ms('2025-04-07T12:00:00Z')]);
  });

  it('a failed send keeps it due, with the reason, once the claim is released', async () => {
    const now = { t: ms('2025-03-12T15:00:00Z') };
    const { s, areaId } = service(now);
    const saved = s.save(undefined, { areaId });
    now.t += 7 * DAY;
    const [due] = (await s.claimDue()).due;
    expect(
      await s.send({ scheduleId: saved.id, dueAt: due?.dueAt ?? 0, failed: 'Chromium stopped' }),
    ).toEqual({
      sent: false,
      error: 'The report could not be printed: Chromium stopped',
    });
    expect(s.list().schedules[0]?.lastError).toContain('Chromium stopped');
    expect((await s.claimDue()).due).toHaveLength(1);
  });

  it('a schedule for one feature of a layer: its zone, a bulletin filtered to that feature, mailed once', async () => {
    const now = { t: ms('2025-03-12T15:00:00Z') };
    const sent: { subject?: string; attachments?: unknown }[] = [];
    const printed = { format: 'pdf', state: 'done', file: { path: '/data/exports/report.pdf' } };
    const { s, db, areaId } = service(now, true, {
      exports: { get: (id: string) => (id === 'job-1' ? printed : undefined) } as unknown as ExportJobs,
      transport: () => ({
        sendMail: async (m) => void sent.push(m as (typeof sent)[number]),
        close: () => undefined,
      }),
    });
    setChannel(
      db,
      'email',
      { host: '127.0.0.1', port: 2525, tls: 'starttls', from: 'b@o.test', to: ['a@o.test'] },
      false,
      0,
    );
    const beat = addBeat(db, 'Beat 1234', DENVER);
    expect(() => s.save(undefined, { areaId, feature: beat })).toThrow(/one area or one feature/);
    expect(() => s.save(undefined, { feature: { ...beat, featureId: beat.featureId + 9 } })).toThrow(
      /has no feature/,
    );
    const saved = s.save(undefined, { feature: beat, weekday: 1, time: '07:00' });
    expect(saved).toMatchObject({
      areaId: null,
      areaName: 'Beats: Beat 1234',
      feature: { ...beat, layerName: 'Beats', featureName: 'Beat 1234' },
      zone: 'America/Denver',
      nextDueAt: ms('2025-03-17T07:00:00-06:00'),
    });
    now.t = ms('2025-03-17T13:05:00Z'); // Monday 07:05 in Denver (MDT)
    const { due } = await s.claimDue();
    expect(due).toEqual([
      {
        scheduleId: saved.id,
        dueAt: ms('2025-03-17T07:00:00-06:00'),
        filters: { feature: beat, from: '2025-03-10', to: '2025-03-16' },
        report: { asOf: '2025-03-16', paper: 'letter' },
      },
    ]);
    expect(await s.send({ scheduleId: saved.id, dueAt: due[0]?.dueAt ?? 0, jobId: 'job-1' })).toEqual({
      sent: true,
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.subject).toBe('Blotter bulletin: Beats: Beat 1234, 2025-03-10 to 2025-03-16');
    expect(sent[0]?.attachments).toEqual([expect.objectContaining({ path: '/data/exports/report.pdf' })]);
    expect((await s.claimDue()).due).toEqual([]);
    // Removing the layer removes its schedule.
    db.prepare('DELETE FROM reference_layers WHERE id = ?').run(beat.layerId);
    expect(s.list().schedules).toEqual([]);
  });

  it('refuses to mail for a schedule nobody claimed', async () => {
    const now = { t: ms('2025-03-12T15:00:00Z') };
    const { s, areaId } = service(now);
    const saved = s.save(undefined, { areaId });
    await expect(s.send({ scheduleId: saved.id, dueAt: now.t, jobId: 'x' })).rejects.toThrow(/not claimed/);
  });
});

describe('office mode: only the leader sends', () => {
  let server: TestPostgres;
  const archives: Crafted[] = [];
  beforeAll(async () => {
    server = await startTestPostgres();
  }, 60_000);
  afterAll(() => {
    for (const a of archives) a.close();
    server?.stop();
  });

  async function desk(holder: string, events: EngineEvent[], now: { t: number }) {
    const a = craftedArchive();
    archives.push(a);
    const pool = openOfficePool(parseOfficeUrl(server.url), server.password, 2);
    const { officeId } = await migrateOffice(pool);
    await pool.end();
    linkOffice(a.db, server.url, officeId, Date.now());
    const settings = createSettingsRepo(a.db);
    const secrets = createMemorySecretStore();
    await secrets.set(officePasswordAccount(settings.profileId()), server.password);
    const core = {
      db: a.db,
      host: 'electron',
      secrets,
      settings,
      log: createLogger('test'),
      emit: (e: EngineEvent) => events.push(e),
    } as unknown as EngineCore;
    const office = createOfficeService(core, {}, { holder });
    const schedules = createReportScheduleService(core, {
      exports: {} as ExportJobs,
      leads: () => office.leadsReportMail(),
      now: () => now.t,
    });
    const areaId = addArea(a.db, { at: CHICAGO, name: 'Loop' });
    schedules.save(undefined, { areaId, weekday: 1, time: '07:00' });
    return { office, schedules };
  }

  it('two desktops with the same due schedule: the leader claims it, the follower neither claims nor announces it', async () => {
    const now = { t: ms('2025-03-12T15:00:00Z') };
    const aEvents: EngineEvent[] = [];
    const bEvents: EngineEvent[] = [];
    const a = await desk('desk-a', aEvents, now);
    const b = await desk('desk-b', bEvents, now);
    try {
      now.t += 7 * DAY;
      const first = await a.schedules.claimDue();
      expect(first.leader).toBe(true);
      expect(first.due).toHaveLength(1);
      const follower = await b.schedules.claimDue();
      expect(follower).toEqual({ due: [], leader: false });
      expect(await b.schedules.check()).toBe(1); // due on its own folder…
      expect(bEvents).toEqual([]); // …but it is not the leader, so it says nothing
      // The leader keeps the lease across its looks.
      expect(await a.office.leadsReportMail()).toBe(true);
      expect(await b.office.leadsReportMail()).toBe(false);
    } finally {
      await a.office.close();
      await b.office.close();
    }
  }, 60_000);
});
