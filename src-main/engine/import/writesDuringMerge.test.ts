/**
 * A user's save during an import's merge (issue 31): the merge holds the write lock on its helper
 * thread's connection, so a settings save or an area edit on the engine's connection is refused by
 * SQLite at once — the dispatcher then waits for its write turn (store/writeTurns.ts
 * `waitingOnRefusal`) while the engine goes on answering, and makes it after the merge's commit.
 * Nothing is lost; nothing says "locked".
 */
import { afterEach, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src-shared/contract';
import type { ImportPreview, ImportResult } from '../../../src-shared/exports';
import type { SettingsView } from '../../../src-shared/settings';
import type { AreaView } from '../../../src-shared/sync';
import { apiRow } from '../export/exportTesting';
import { openEngine, type EngineFixture } from '../testing/engineFixture';

const BASE = 900_000_000;
let fx: EngineFixture;
afterEach(() => fx.close());

const shape = (lat: number) => ({ kind: 'circle' as const, lat, lon: -87.6289, radiusMi: 1 });

/** Until the merge holds the write lock: the engine's connection (waiting 0 ms meanwhile) is refused. */
async function mergeHoldsTheLock(): Promise<void> {
  const db = fx.engine.context.db;
  for (;;) {
    try {
      db.exec('BEGIN IMMEDIATE');
      db.exec('ROLLBACK');
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

it('makes a settings save and area edits asked during a merge after its commit, answering calls meanwhile', async () => {
  fx = openEngine({ host: 'cli', version: 't' });
  const loop = await fx.call<AreaView>('createArea', { name: 'Loop', shape: shape(41.88) });
  const rows = Array.from({ length: 40_000 }, (_, k) =>
    apiRow(BASE + k, { lat: 41.5 + (k % 1000) / 10_000 }),
  );
  const pv = await fx.call<ImportPreview>('previewImport', {
    source: { path: fx.file('many.json', JSON.stringify(rows)) },
  });
  // The merge lasts: heavy work for one imported row in 2,000, on the helper's connection.
  fx.engine.context.db.exec(`CREATE TRIGGER slow_import AFTER INSERT ON incidents
    WHEN new.cdid >= ${BASE} AND new.cdid % 2000 = 0 BEGIN
      SELECT count(*) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300000) SELECT x FROM c);
    END`);
  await fx.call('countIncidents', { filters: { preset: 'all' } });
  const run = fx.call<ImportResult>('runImport', { importId: pv.importId });
  await fx.waitFor((e): e is EngineEvent => e.type === 'importProgress' && e.phase === 'writing', 60_000);
  await mergeHoldsTheLock();

  const imported = () =>
    fx.engine.context.db
      .prepare('SELECT count(*) FROM incidents WHERE cdid >= ?')
      .pluck()
      .get(BASE) as number;
  // What the file held when each save was answered: the merge's rows, once it committed.
  const after = <T>(p: Promise<T>) => p.then((value) => ({ value, imported: imported() }));
  const saved = after(fx.call<SettingsView>('updateSettings', { windowDays: 123, plan: 'enterprise' }));
  const renamed = after(fx.call<AreaView>('renameArea', { id: loop.id, name: 'Loop renamed' }));
  const created = after(fx.call<AreaView>('createArea', { name: 'North', shape: shape(41.95) }));
  // A delete may reach outside this folder (an office area's, in PostgreSQL): never run twice, it
  // answers in words at once and deletes nothing.
  const refused = await fx.call('deleteArea', { id: loop.id, keepIncidents: true }).then(
    () => 'deleted',
    (error: Error & { code?: string }) => `${error.code}: ${error.message}`,
  );
  expect(refused).toMatch(/^database_locked: .*being written by an import/);
  // The engine answers meanwhile: the merge has not committed.
  const counted = await fx.call<{ total: number }>('countIncidents', { filters: { preset: 'all' } });
  expect(counted.total).toBe(0);

  expect(await run).toMatchObject({ inserted: 40_000 });
  // Each save was made, after the merge's commit (it waited its turn).
  expect(await saved).toMatchObject({ imported: 40_000, value: { windowDays: 123, plan: 'enterprise' } });
  expect(await renamed).toMatchObject({ imported: 40_000, value: { name: 'Loop renamed' } });
  expect(await created).toMatchObject({ imported: 40_000, value: { name: 'North' } });
  expect(fx.engine.context.settings.get()).toMatchObject({ windowDays: 123, plan: 'enterprise' });
  const areas = await fx.call<{ areas: AreaView[] }>('listAreas', {});
  expect(areas.areas.map((a) => a.name).sort()).toEqual(['Loop renamed', 'North']);
  expect(imported()).toBe(40_000);
  expect(JSON.stringify(fx.events)).not.toMatch(/locked/i);
}, 180_000);
