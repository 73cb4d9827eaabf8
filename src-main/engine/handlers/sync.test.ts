/**
 * Sync calls as the app hosts see them: a description on demand fails fast when the API cannot be
 * reached, connectivity events on each change, and the background refresh the engine starts itself.
 */
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src-shared/contract';
import { startSimulator, type Simulator } from '../../../src-sim/index';
import type { Engine, EngineOptions } from '../engine';
import { connectTo, enterpriseKey, ok, openEngine, type EngineFixture } from '../testing/engineFixture';

const KEY = 'sync-handler-key-01';
/** A key of its own for the long Retry-After (the limiter, one per key, then pauses for a minute). */
const SLOW_KEY = 'sync-handler-key-02';
const loop = { kind: 'circle' as const, lat: 41.8837, lon: -87.6289, radiusMi: 0.3 };

let sim: Simulator;
/** Drops every connection once the request arrives: a network fault on every attempt, counted. */
let dropper: Server;
let drops = 0;
let dropperUrl: string;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 9,
    scale: 20_000,
    spanDays: 40,
    keys: [KEY, SLOW_KEY].map(enterpriseKey),
  });
  dropper = createServer((socket) => {
    drops++;
    socket.once('data', () => socket.destroy());
  });
  await new Promise<void>((r) => dropper.listen(0, '127.0.0.1', r));
  dropperUrl = `http://127.0.0.1:${(dropper.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await sim.close();
  await new Promise<void>((r) => dropper.close(() => r()));
});

let fx: EngineFixture | null = null;
let events: EngineEvent[] = [];

async function open(options: Partial<EngineOptions> = {}, key = KEY, baseUrl = sim.url): Promise<Engine> {
  fx = openEngine({ scheduler: false, ...options });
  events = fx.events;
  await connectTo(fx.engine, baseUrl, key);
  return fx.engine;
}
afterEach(async () => {
  await fx?.close();
  fx = null;
});
async function timed<T>(p: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await p;
  return { value, ms: performance.now() - started };
}
const connectivity = () => events.filter((e) => e.type === 'connectivity');
const someCdid = (): number => sim.groundTruth({ ...loop, key: KEY })[0]!.cdid;

describe('a description on demand', () => {
  it('answers offline within about two seconds when the API cannot be reached, after one quick retry', async () => {
    const e = await open({}, KEY, dropperUrl);
    drops = 0;
    const { value, ms } = await timed(e.dispatch('fetchIncidentDetail', { cdid: someCdid() }));
    expect(value).toEqual({
      ok: false,
      error: {
        code: 'offline',
        message: `Can't reach the API at ${new URL(dropperUrl).host} — showing the local archive. The description comes from the service: open the incident again once it can be reached.`,
      },
    });
    expect(drops).toBe(2);
    expect(ms).toBeLessThan(2_500);
  });

  it('waits out a short Retry-After', async () => {
    const e = await open();
    sim.setFaults({ storm429: { count: 1, retryAfterSec: 1 } });
    const { value, ms } = await timed(e.dispatch('fetchIncidentDetail', { cdid: someCdid() }));
    expect(value).toMatchObject({ ok: true, value: { cdid: someCdid() } });
    expect(ms).toBeGreaterThanOrEqual(900);
  });

  it('says how long the service asked to wait instead of hanging on a long Retry-After', async () => {
    const e = await open({}, SLOW_KEY);
    sim.setFaults({ storm429: { count: 1, retryAfterSec: 90 } });
    const { value, ms } = await timed(e.dispatch('fetchIncidentDetail', { cdid: someCdid() }));
    sim.setFaults({ storm429: null });
    expect(value).toMatchObject({
      ok: false,
      error: { code: 'rate_limited', message: expect.stringMatching(/wait 90 s before the next request/) },
    });
    expect(ms).toBeLessThan(2_000);
  });
});

describe('connectivity events', () => {
  it('go out once when the API becomes unreachable, and once when it answers again', async () => {
    const e = await open({}, KEY, dropperUrl);
    const cdid = someCdid();
    expect((await e.dispatch('fetchIncidentDetail', { cdid })).ok).toBe(false);
    expect((await e.dispatch('fetchIncidentDetail', { cdid })).ok).toBe(false);
    expect(connectivity()).toEqual([
      {
        type: 'connectivity',
        online: false,
        message: `Can't reach the API at ${new URL(dropperUrl).host} — showing the local archive`,
      },
    ]);
    await ok(e.dispatch('updateSettings', { baseUrl: sim.url }));
    await ok(e.dispatch('setApiKey', { key: KEY })); // a new base URL takes the key only when re-entered
    await ok(e.dispatch('fetchIncidentDetail', { cdid }));
    // Any HTTP answer means reachable, a 404 included; nothing changed, so nothing is sent.
    expect(await e.dispatch('fetchIncidentDetail', { cdid: 1 })).toMatchObject({
      error: { code: 'not_found' },
    });
    expect(connectivity()).toEqual([
      expect.objectContaining({ online: false }),
      { type: 'connectivity', online: true },
    ]);
  });

  it('say once that the API answers, at its first answer, then stay silent while it does', async () => {
    const e = await open();
    expect(await e.dispatch('getConnectivity', {})).toEqual({ ok: true, value: { online: null } });
    await ok(e.dispatch('fetchIncidentDetail', { cdid: someCdid() }));
    await ok(e.dispatch('fetchIncidentDetail', { cdid: someCdid() }));
    expect(connectivity()).toEqual([{ type: 'connectivity', online: true }]);
    // A window that opens later (the demo syncs before any page is there) asks and is told.
    expect(await e.dispatch('getConnectivity', {})).toEqual({ ok: true, value: { online: true } });
  });
});

describe('the background refresh', () => {
  it('refreshes a due area without a startSync call, skipping paused and never-synced areas', async () => {
    const e = await open({ scheduler: { firstCheckMs: 10, checkEveryMs: 50 } });
    const due = await ok(e.dispatch('createArea', { name: 'Due', shape: loop, refreshMinutes: 15 }));
    const paused = await ok(e.dispatch('createArea', { name: 'Paused', shape: loop }));
    const recent = await ok(e.dispatch('createArea', { name: 'Recent', shape: loop, refreshMinutes: 60 }));
    const never = await ok(e.dispatch('createArea', { name: 'Never', shape: loop }));
    await ok(e.dispatch('setAreaPaused', { id: paused.id, paused: true }));
    const syncedAgo = e.context.db.prepare('UPDATE areas SET last_synced_at = ? WHERE id = ?');
    syncedAgo.run(Date.now() - 16 * 60_000, due.id);
    syncedAgo.run(Date.now() - 16 * 60_000, paused.id);
    syncedAgo.run(Date.now() - 16 * 60_000, recent.id);

    await expect
      .poll(
        () => events.some((ev) => ev.type === 'syncProgress' && ev.areaId === due.id && ev.state === 'done'),
        {
          timeout: 20_000,
          interval: 50,
        },
      )
      .toBe(true);
    const synced = new Set(events.flatMap((ev) => (ev.type === 'syncProgress' ? [ev.areaId] : [])));
    expect([...synced]).toEqual([due.id]);
    const view = (await ok(e.dispatch('listAreas', {}))).areas.find((a) => a.id === due.id);
    expect(view?.lastRun).toMatchObject({ state: 'done' });
    expect(view?.lastSyncedAt).toBeGreaterThan(Date.now() - 60_000);
    expect(never.lastSyncedAt).toBeNull();
  });

  it('runs from engine start to close for the app hosts, and never for the CLI', async () => {
    const web = await open({ scheduler: undefined });
    expect(web.context.services.sync.scheduling()).toBe(true);
    await web.close();
    expect(web.context.services.sync.scheduling()).toBe(false);
    await fx?.close();

    const cli = await open({ host: 'cli', scheduler: undefined });
    expect(cli.context.services.sync.scheduling()).toBe(false);
  });
});

describe('incidentsChanged', () => {
  const changes = () => events.filter((e) => e.type === 'incidentsChanged');
  const finished = (areaId: number) => () =>
    events.some((ev) => ev.type === 'syncProgress' && ev.areaId === areaId && ev.state === 'done');

  it('goes out after the commits that changed rows, at most every 250 ms, and not for a sync that changed none', async () => {
    const e = await open();
    const stamped: number[] = [];
    const emitAt = events.push.bind(events);
    events.push = (...items: EngineEvent[]) => {
      for (const item of items) if (item.type === 'incidentsChanged') stamped.push(performance.now());
      return emitAt(...items);
    };
    const area = await ok(e.dispatch('createArea', { name: 'Loop', shape: loop }));
    await ok(e.dispatch('startSync', { areaIds: [area.id] }));
    await expect.poll(finished(area.id), { timeout: 20_000, interval: 20 }).toBe(true);
    await new Promise((r) => setTimeout(r, 300)); // the last gathered event
    const counted = await ok(e.dispatch('countIncidents', { filters: { preset: 'all' } }));
    expect(counted.total).toBeGreaterThan(0);
    expect(changes().length).toBeGreaterThan(0);
    expect(changes().every((c) => c.type === 'incidentsChanged' && c.areaId === area.id)).toBe(true);
    for (let i = 1; i < stamped.length; i++) {
      expect(stamped[i]! - stamped[i - 1]!).toBeGreaterThanOrEqual(245);
    }
    // No progress counter is needed to know: an event follows the first commit of new rows.
    const firstChange = events.findIndex((ev) => ev.type === 'incidentsChanged');
    const firstDone = events.findIndex((ev) => ev.type === 'syncProgress' && ev.state === 'done');
    expect(firstChange).toBeLessThan(firstDone);

    // Synced again at once: nothing new or changed is written, so nothing is announced.
    const before = changes().length;
    events.splice(0, events.length);
    await ok(e.dispatch('startSync', { areaIds: [area.id] }));
    await expect.poll(finished(area.id), { timeout: 20_000, interval: 20 }).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(changes()).toEqual([]);
    expect(before).toBeGreaterThan(0);
  });
});
