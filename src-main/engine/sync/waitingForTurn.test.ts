/**
 * A sync asked while an import is being saved waits for its write turn (store/writeTurns.ts)
 * before it starts: meanwhile the area shows as syncing, its progress says it waits for the import,
 * and Stop ends it without a write or a request. Against the simulator; the import's hold is a real
 * write on a second connection, held until the test lets it commit.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src-shared/contract';
import type { AreaView } from '../../../src-shared/sync';
import { startSimulator, type Simulator } from '../../../src-sim/index';
import { openSecondWriter } from '../store/writeTurns';
import { connectTo, enterpriseKey, openEngine, type EngineFixture } from '../testing/engineFixture';

const KEY = 'waiting-for-turn-key';
let sim: Simulator;
let fx: EngineFixture;
beforeAll(async () => {
  sim = await startSimulator({ seed: 9, spanDays: 20, keys: [enterpriseKey(KEY)] });
});
afterAll(() => sim.close());
afterEach(() => fx.close());

type Progress = Extract<EngineEvent, { type: 'syncProgress' }>;
const progress =
  (state: Progress['state']) =>
  (e: EngineEvent): e is Progress =>
    e.type === 'syncProgress' && e.state === state;

/** An import's save as the engine holds it: the write turns, and the write lock on another connection. */
function importBeingSaved(): { commit: () => Promise<void> } {
  const turns = fx.engine.context.services.writeTurns;
  const helper = openSecondWriter(fx.engine.context.db.name);
  let commit!: () => void;
  const committed = new Promise<void>((resolve) => (commit = resolve));
  const saved = turns.hold(async () => {
    helper.exec('BEGIN IMMEDIATE');
    helper.prepare("INSERT INTO settings (key, value) VALUES ('import-probe', '1')").run();
    await committed;
    helper.exec('COMMIT');
    helper.close();
  });
  return {
    commit: async () => {
      commit();
      await saved;
    },
  };
}

it('shows a sync waiting for the import to be saved, and Stop ends it without writing', async () => {
  fx = openEngine({ host: 'cli', version: 't' });
  await connectTo(fx.engine, sim.url, KEY);
  const shape = { kind: 'circle' as const, lat: 41.8837, lon: -87.6289, radiusMi: 1 };
  const area = await fx.call<AreaView>('createArea', { name: 'Loop', shape });
  const db = fx.engine.context.db;
  const requestsBefore = sim.stats().total;

  const saving = importBeingSaved();
  const start = fx.call<{ started: number[] }>('startSync', { areaIds: [area.id] });
  const waiting = await fx.waitFor(progress('planning'));
  expect(waiting).toMatchObject({ areaId: area.id, message: 'Waiting for the import to be saved' });
  // The engine answers meanwhile, and the area is a sync under way.
  const listed = await fx.call<{ areas: AreaView[] }>('listAreas', {});
  expect(listed.areas[0]).toMatchObject({ id: area.id, syncing: true });

  expect(await fx.call<{ stopped: number[] }>('stopSync', { areaIds: [area.id] })).toEqual({
    stopped: [area.id],
  });
  await saving.commit();
  expect(await start).toEqual({ started: [] });
  expect(await fx.waitFor(progress('paused'))).toMatchObject({
    areaId: area.id,
    message: expect.stringMatching(/nothing was written/),
  });
  // Nothing written, nothing asked: no run, no lock, no request.
  expect(db.prepare('SELECT count(*) FROM sync_runs').pluck().get()).toBe(0);
  expect(db.prepare('SELECT count(*) FROM sync_locks').pluck().get()).toBe(0);
  expect(sim.stats().total).toBe(requestsBefore);
  expect((await fx.call<{ areas: AreaView[] }>('listAreas', {})).areas[0]).toMatchObject({ syncing: false });
  expect(fx.events.some((e) => e.type === 'syncProgress' && e.state === 'running')).toBe(false);

  // Asked again with no import being saved, it starts at once and runs to the end.
  expect(await fx.call<{ started: number[] }>('startSync', { areaIds: [area.id] })).toEqual({
    started: [area.id],
  });
  expect(await fx.waitFor(progress('done'), 60_000)).toMatchObject({ areaId: area.id });
}, 120_000);

it('starts a waiting sync after the import is saved when nobody stopped it', async () => {
  fx = openEngine({ host: 'cli', version: 't' });
  await connectTo(fx.engine, sim.url, KEY);
  const shape = { kind: 'circle' as const, lat: 41.8837, lon: -87.6289, radiusMi: 1 };
  const area = await fx.call<AreaView>('createArea', { name: 'Loop', shape });
  const saving = importBeingSaved();
  const start = fx.call<{ started: number[] }>('startSync', { areaIds: [area.id] });
  await fx.waitFor(progress('planning'));
  await saving.commit();
  expect(await start).toEqual({ started: [area.id] });
  expect(await fx.waitFor(progress('done'), 60_000)).toMatchObject({ areaId: area.id });
  expect(
    fx.engine.context.db.prepare("SELECT count(*) FROM sync_runs WHERE state = 'done'").pluck().get(),
  ).toBe(1);
}, 120_000);

it("ends the command line's sync waiting for its turn when it is stopped, before any write", async () => {
  fx = openEngine({ host: 'cli', version: 't' });
  await connectTo(fx.engine, sim.url, KEY);
  const shape = { kind: 'circle' as const, lat: 41.8837, lon: -87.6289, radiusMi: 1 };
  const area = await fx.call<AreaView>('createArea', { name: 'Loop', shape });
  const requestsBefore = sim.stats().total;
  const saving = importBeingSaved();
  const run = fx.call<{ runs: unknown[] }>('runSync', { areaIds: [area.id] });
  await fx.waitFor(progress('planning'));
  expect(await fx.call<{ stopped: number[] }>('stopSync', {})).toEqual({ stopped: [area.id] });
  await saving.commit();
  expect((await run).runs).toEqual([]);
  expect(fx.engine.context.db.prepare('SELECT count(*) FROM sync_runs').pluck().get()).toBe(0);
  expect(sim.stats().total).toBe(requestsBefore);
}, 120_000);
