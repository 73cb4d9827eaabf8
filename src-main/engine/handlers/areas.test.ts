import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src-shared/contract';
import { startSimulator, type Simulator } from '../../../src-sim/index';
import type { Engine } from '../engine';
import { createAreaStore } from '../areas/areaStore';
import { linkOffice, unlinkOffice } from '../office/replica';
import { enterpriseKey, ok, openEngine, type EngineFixture } from '../testing/engineFixture';

const KEY = 'handler-test-key-42';
let sim: Simulator;
let fx: EngineFixture;
let engine: Engine;
let events: EngineEvent[];

beforeAll(async () => {
  sim = await startSimulator({
    seed: 9,
    scale: 20_000,
    spanDays: 40,
    keys: [enterpriseKey(KEY)],
  });
});
afterAll(() => sim.close());

beforeEach(() => {
  fx = openEngine();
  ({ engine, events } = fx);
});
afterEach(() => fx.close());
const chicago = { kind: 'circle' as const, lat: 41.8837, lon: -87.6289, radiusMi: 0.4 };

describe('area handlers', () => {
  it('creates, lists, renames, pauses and deletes areas', async () => {
    const a = await ok(engine.dispatch('createArea', { name: 'Loop', shape: chicago }));
    expect(a).toMatchObject({
      name: 'Loop',
      refreshMinutes: 15,
      paused: false,
      backfilledAt: null,
      lastRun: null,
      syncing: false,
    });
    await ok(engine.dispatch('renameArea', { id: a.id, name: 'The Loop' }));
    await ok(engine.dispatch('setAreaPaused', { id: a.id, paused: true }));
    await ok(engine.dispatch('setAreaRefresh', { id: a.id, refreshMinutes: 60 }));
    const list = await ok(engine.dispatch('listAreas', {}));
    expect(list.areas).toMatchObject([{ id: a.id, name: 'The Loop', paused: true, refreshMinutes: 60 }]);
    expect(await ok(engine.dispatch('deleteArea', { id: a.id }))).toEqual({
      deleted: true,
      incidentsRemoved: 0,
    });
    expect((await ok(engine.dispatch('listAreas', {}))).areas).toEqual([]);
  });

  it('edits the office’s areas while the folder is joined to one, and its own again after it leaves', async () => {
    // Joined to an office whose database cannot be reached (nothing listens on port 1), holding
    // the office's area as a pull brought it: every edit goes to the office, so it is refused as
    // the office's, and the file keeps what it had.
    linkOffice(engine.context.db, 'postgres://blotter@127.0.0.1:1/office', 'office-1', Date.now());
    const own = createAreaStore(engine.context.db).create({ name: 'Loop', shape: chicago }, Date.now());
    const edits = [
      engine.dispatch('createArea', { name: 'West', shape: { ...chicago, lon: -87.7 } }),
      engine.dispatch('renameArea', { id: own.id, name: 'The Loop' }),
      engine.dispatch('setAreaPaused', { id: own.id, paused: true }),
      engine.dispatch('deleteArea', { id: own.id }),
    ];
    for (const edit of await Promise.all(edits))
      expect(edit.ok ? null : edit.error).toMatchObject({
        code: 'office_unreachable',
        message: /Areas are the office's/,
      });
    expect((await ok(engine.dispatch('listAreas', {}))).areas).toMatchObject([
      { id: own.id, name: 'Loop', paused: false },
    ]);

    // Standalone again: the same calls write the file.
    unlinkOffice(engine.context.db);
    await ok(engine.dispatch('renameArea', { id: own.id, name: 'The Loop' }));
    const west = await ok(engine.dispatch('createArea', { name: 'West', shape: { ...chicago, lon: -87.7 } }));
    expect((await ok(engine.dispatch('listAreas', {}))).areas.map((a) => [a.id, a.name])).toEqual([
      [own.id, 'The Loop'],
      [west.id, 'West'],
    ]);
  });

  it('refuses shapes it cannot use, saying why', async () => {
    const crossing = await engine.dispatch('createArea', {
      name: 'Bow tie',
      shape: {
        kind: 'polygon',
        points: [
          [41.8, -87.7],
          [41.9, -87.6],
          [41.9, -87.7],
          [41.8, -87.6],
        ],
      },
    });
    expect(crossing).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.stringMatching(/cross/) },
    });
    const huge = await engine.dispatch('createArea', { name: 'Huge', shape: { ...chicago, radiusMi: 400 } });
    expect(huge).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    const polygon = await engine.dispatch('createArea', {
      name: 'Triangle',
      shape: {
        kind: 'polygon',
        points: [
          [41.87, -87.64],
          [41.89, -87.64],
          [41.88, -87.62],
        ],
      },
    });
    expect(polygon.ok).toBe(true);
  });
});

describe('sync handlers', () => {
  it('needs a base URL and a key before syncing', async () => {
    const a = await ok(engine.dispatch('createArea', { name: 'Loop', shape: chicago }));
    expect(await engine.dispatch('startSync', { areaIds: [a.id] })).toMatchObject({
      ok: false,
      error: { code: 'bad_input' },
    });
    await ok(engine.dispatch('updateSettings', { baseUrl: sim.url }));
    expect(await engine.dispatch('startSync', { areaIds: [a.id] })).toMatchObject({
      ok: false,
      error: { code: 'no_api_key' },
    });
  });

  it('plans, syncs with progress events, fetches a description first in line', async () => {
    await ok(
      engine.dispatch('updateSettings', {
        baseUrl: sim.url,
        plan: 'enterprise',
        ratePerMinute: 6000,
        windowDays: 30,
      }),
    );
    await ok(engine.dispatch('setApiKey', { key: KEY }));
    const a = await ok(engine.dispatch('createArea', { name: 'Loop', shape: chicago }));
    const plan = await ok(engine.dispatch('planSync', { areaIds: [a.id] }));
    expect(plan).toMatchObject({
      ratePerMinute: 6000,
      areas: [{ areaId: a.id, kind: 'backfill', basis: 'minimum' }],
    });
    expect(plan.requests).toBeGreaterThan(0);
    expect(plan.minutes).toBeCloseTo(plan.requests / 6000);

    expect(await ok(engine.dispatch('startSync', { areaIds: [a.id] }))).toEqual({ started: [a.id] });
    const deadline = Date.now() + 20_000;
    while (
      !events.some((e) => e.type === 'syncProgress' && (e.state === 'done' || e.state === 'failed')) &&
      Date.now() < deadline
    ) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const progress = events.filter((e) => e.type === 'syncProgress');
    const last = progress.at(-1);
    expect(last).toMatchObject({ state: 'done', areaId: a.id, kind: 'backfill' });
    expect(progress.map((e) => e.state)).toContain('running');
    const truth = sim.groundTruth({ ...chicago, key: KEY });
    expect(last && last.type === 'syncProgress' && last.new).toBe(truth.length);

    const view = (await ok(engine.dispatch('listAreas', {}))).areas[0];
    expect(view).toMatchObject({ lastRun: { state: 'done', kind: 'backfill' }, syncing: false });
    expect(view?.backfilledAt).not.toBeNull();

    const cdid = truth[0]?.cdid as number;
    const detail = await ok(engine.dispatch('fetchIncidentDetail', { cdid }));
    expect(detail).toMatchObject({ cdid, description: truth[0]?.description });
    expect(await engine.dispatch('fetchIncidentDetail', { cdid: 1 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});
