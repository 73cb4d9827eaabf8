/**
 * Cancel during an import (issue 31): `cancelImport` ends the running step's threads at once. A
 * cancelled run's transaction rolls back on the helper's connection — nothing written, the write
 * turns released so the next write proceeds; a cancelled preview stages nothing. Either call answers
 * `cancelled` in words, and a new import afterwards works.
 */
import { existsSync, readdirSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src-shared/contract';
import type { ImportPreview, ImportResult } from '../../../src-shared/exports';
import type { SettingsView } from '../../../src-shared/settings';
import { apiRow, openTestEngine, type TestEngine } from '../export/exportTesting';
import { importsDirOf } from '../files/sources';
import { openEngine, type EngineFixture } from '../testing/engineFixture';
import { Imports } from './imports';

const BASE = 900_000_000;
let fx: EngineFixture | null = null;
let t: TestEngine | null = null;
afterEach(() => {
  fx?.close();
  t?.close();
  fx = t = null;
});

/** What a call settled with: its value, or its error's code and words. */
const outcome = <T>(p: Promise<T>) =>
  p.then(
    (value) => ({ value }),
    (error: Error & { code?: string }) => ({ code: error.code, message: error.message }),
  );

/** Stage files left in the data folder's imports folder. */
const stageFiles = (dataDir: string): string[] => {
  const dir = importsDirOf(dataDir);
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.includes('.stage-')) : [];
};

it('cancels a merge: nothing written, the write turns released, a save and a new import go on', async () => {
  const e = openEngine({ host: 'cli', version: 't' });
  fx = e;
  const db = e.engine.context.db;
  const rows = Array.from({ length: 40_000 }, (_, k) =>
    apiRow(BASE + k, { lat: 41.5 + (k % 1000) / 10_000 }),
  );
  const source = { path: e.file('many.json', JSON.stringify(rows)) };
  const pv = await e.call<ImportPreview>('previewImport', { source });
  // The merge lasts: heavy work for one imported row in 2,000, on the helper's connection.
  db.exec(`CREATE TRIGGER slow_import AFTER INSERT ON incidents
    WHEN new.cdid >= ${BASE} AND new.cdid % 2000 = 0 BEGIN
      SELECT count(*) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000) SELECT x FROM c);
    END`);
  const before = db.prepare('SELECT count(*) FROM incidents').pluck().get();
  const run = outcome(e.call<ImportResult>('runImport', { importId: pv.importId }));
  await e.waitFor((ev): ev is EngineEvent => ev.type === 'importProgress' && ev.phase === 'writing', 60_000);
  // Until the merge holds the write lock: then some rows are in its open transaction.
  for (;;) {
    try {
      db.exec('BEGIN IMMEDIATE');
      db.exec('ROLLBACK');
    } catch {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const asked = performance.now();
  expect(await e.call('cancelImport', {})).toEqual({ cancelled: true });
  expect(await run).toEqual({ code: 'cancelled', message: 'Import cancelled; nothing was written.' });
  // At once: the merge's one INSERT statement stops at its next check (~0.6 s at load 13); the 20
  // heavy rows would hold it well over 5 s, and a thread is only ended once its statement returns.
  expect(performance.now() - asked).toBeLessThan(3_000);
  expect(db.prepare('SELECT count(*) FROM incidents').pluck().get()).toBe(before);
  // The helper's connection is closed, its transaction rolled back: the write lock is free as Cancel answers.
  db.exec('BEGIN IMMEDIATE');
  db.exec('ROLLBACK');
  expect(await e.call('countIncidents', { filters: { preset: 'all' } })).toMatchObject({ total: 0 });
  // The turns are free: a save is made now, not refused or queued behind a merge.
  const saved = await e.call<SettingsView>('updateSettings', { windowDays: 77, plan: 'enterprise' });
  expect(saved.windowDays).toBe(77);
  expect(await e.call('cancelImport', {})).toEqual({ cancelled: false });

  db.exec('DROP TRIGGER slow_import');
  const again = await e.call<ImportPreview>('previewImport', { source });
  expect(await e.call<ImportResult>('runImport', { importId: again.importId })).toMatchObject({
    inserted: 40_000,
  });
  expect(JSON.stringify(e.events)).not.toMatch(/locked/i);
}, 180_000);

it('cancels a preview on the check threads: nothing staged, the next preview and run work', async () => {
  const engine = openTestEngine();
  t = engine;
  const lines = ['cdid,type,occurred_local,timezone,address,lat,lon,description,last_seen'];
  for (let k = 1; k <= 60_000; k++)
    lines.push(
      `${1000 + k},Theft,2025-03-${String(1 + (k % 28)).padStart(2, '0')}T10:15,America/Chicago,${k} N STATE ST,41.8,-87.6,,2025-04-01T00:00:00.000Z`,
    );
  const csv = engine.file('big.csv', lines.join('\n') + '\n');
  let imports: Imports | null = null;
  let cancelled: boolean | null = null;
  const emit = (ev: EngineEvent) => {
    // Cancel as soon as the reading has begun.
    if (cancelled === null && ev.type === 'importProgress' && ev.phase === 'reading' && ev.done > 0)
      cancelled = imports?.cancel() ?? null;
  };
  imports = new Imports(
    { db: engine.db, dataDir: engine.dir.path, emit, query: engine.engine.context.services.query },
    Date.now,
    { parallelMinBytes: 0, threads: 2, chunkChars: 4_000, readBytes: 8_192, helperMinRows: 5_000 },
  );
  const preview = await outcome(imports.preview({ path: csv }));
  expect(cancelled).toBe(true);
  expect(preview).toEqual({ code: 'cancelled', message: 'Import cancelled; nothing was written.' });
  expect(stageFiles(engine.dir.path)).toEqual([]);
  await expect(imports.run('none', 'skip')).rejects.toMatchObject({ code: 'not_found' });

  cancelled = false; // no more cancels
  const pv = await imports.preview({ path: csv });
  expect(pv).toMatchObject({ rows: 60_000, valid: 60_000 });
  expect(await imports.run(pv.importId, 'skip')).toMatchObject({ inserted: 60_000 });
}, 180_000);

it('cancels a preview read on the engine thread, staging nothing', async () => {
  const engine = openTestEngine();
  t = engine;
  const rows = Array.from({ length: 40_000 }, (_, k) => apiRow(BASE + k));
  const json = engine.file('many.json', JSON.stringify(rows));
  let imports: Imports | null = null;
  let cancelled: boolean | null = null;
  const emit = (ev: EngineEvent) => {
    if (cancelled === null && ev.type === 'importProgress' && ev.phase === 'reading' && ev.done > 0)
      cancelled = imports?.cancel() ?? null;
  };
  imports = new Imports({
    db: engine.db,
    dataDir: engine.dir.path,
    emit,
    query: engine.engine.context.services.query,
  });
  expect(await outcome(imports.preview({ path: json }))).toEqual({
    code: 'cancelled',
    message: 'Import cancelled; nothing was written.',
  });
  expect(cancelled).toBe(true);
  expect(stageFiles(engine.dir.path)).toEqual([]);
  expect(engine.db.prepare('SELECT count(*) FROM incidents').pluck().get()).toBe(0);
}, 60_000);
