/**
 * Results are never computed from a snapshot behind the file (issue 25 item 2). The app's engine
 * starts from the saved snapshot (`blotter.sqlite.snapshot`) and re-reads the file in the
 * background when it changed since; meanwhile its views answer at once, marked `updating` (the map
 * says "Updating"). An export or an analysis started then must hold the file's incidents, not the
 * saved snapshot's: it waits for the re-read, whose progress goes out as `archiveReading` events.
 */
import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { seedDatabase } from '../../bench/seed';
import type { EngineEvent } from '../../src-shared/contract';
import { dbFileOf, logFileOf } from './dataDir';
import { createEngine, type Engine } from './engine';
import { configureLogging } from './log';
import { createMemorySecretStore } from './secrets/memorySecretStore';
import { ok } from './testing/engineFixture';
import { makeTempDir, type TempDir } from './testing/tempDir';

const filters = { preset: 'all' as const };

describe('a result asked while the saved snapshot is behind the file', () => {
  let tmp: TempDir;
  let events: EngineEvent[];
  const engines: Engine[] = [];
  const open = (): Engine => {
    const engine = createEngine({
      dataDir: tmp.path,
      secrets: createMemorySecretStore(),
      host: 'electron', // views may answer from the saved snapshot, marked "updating"
      version: '1',
      scheduler: false,
      emit: (e) => events.push(e),
    });
    engines.push(engine);
    return engine;
  };
  /** Incidents in the file, by SQL: live ones, or every row (`all`). */
  const held = (all = false): number => {
    const db = new Database(dbFileOf(tmp.path), { readonly: true });
    try {
      return db
        .prepare(`SELECT count(*) FROM incidents${all ? '' : ' WHERE removed_at IS NULL'}`)
        .pluck()
        .get() as number;
    } finally {
      db.close();
    }
  };

  beforeEach(async () => {
    tmp = makeTempDir();
    events = [];
    configureLogging({ file: logFileOf(tmp.path), stderr: false });
    seedDatabase(dbFileOf(tmp.path), { count: 1500, seed: 3, endDay: '2025-03-14', days: 200 });
    // The last session: it read the archive and saved its snapshot beside the file on closing.
    const last = open();
    await ok(last.dispatch('countIncidents', { filters }));
    await last.close();
    events = [];
    expect(existsSync(`${dbFileOf(tmp.path)}.snapshot`)).toBe(true);
    // While Blotter was closed another process (a CLI import, a restore) changed the file.
    const other = new Database(dbFileOf(tmp.path));
    other.prepare('DELETE FROM incidents WHERE cdid % 3 = 0').run();
    other.close();
    // Hold the background re-read back, so it is surely still pending when the results start.
    vi.stubEnv('BLOTTER_E2E_RELOAD_DELAY_MS', '800');
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    for (const engine of engines.splice(0)) await engine.close();
    configureLogging({ file: null, stderr: true });
    tmp.remove();
  });

  it('an export and an analysis started while the map says "Updating" hold the file’s incidents', async () => {
    const now = held();
    const engine = open();
    const view = await ok(engine.dispatch('countIncidents', { filters }));
    expect(view.updating).toBe(true); // the map says "Updating": the saved snapshot answered
    expect(view.total).toBeGreaterThan(now);
    expect((await ok(engine.dispatch('getMapPoints', { filters }))).updating).toBe(true); // columns in memory
    expect(engine.context.services.query.keeper.reloading).not.toBeNull();

    const dest = `${tmp.path}/out.csv`;
    const [started, hotSpots] = await Promise.all([
      ok(engine.dispatch('startExport', { format: 'csv', filters, destination: { path: dest } })),
      ok(engine.dispatch('analyzeHotSpots', { filters, jobId: 'hs' })),
    ]);
    expect(started.total).toBe(now);
    expect(hotSpots.provenance.incidents).toBe(now);
    for (let i = 0; i < 200; i++) {
      if (events.some((e) => e.type === 'exportProgress' && e.jobId === started.jobId && e.state === 'done'))
        break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const done = events.find(
      (e): e is Extract<EngineEvent, { type: 'exportProgress' }> =>
        e.type === 'exportProgress' && e.jobId === started.jobId && e.state === 'done',
    );
    expect(done?.done).toBe(now);
    expect(readFileSync(dest, 'utf8').trim().split('\n').length - 1).toBe(now);

    // The re-read they waited for said how far it was, and the views now agree.
    const reading = events.filter((e) => e.type === 'archiveReading');
    expect(reading.at(-1)).toEqual({ type: 'archiveReading', done: held(true), total: held(true) });
    const after = await ok(engine.dispatch('countIncidents', { filters }));
    expect(after.updating).toBeUndefined();
    expect(after.total).toBe(now);
  });
});
