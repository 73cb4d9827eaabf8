/** The sync's history stays bounded (issue 11, item 18): a week of request log, 100 runs per area. */
import { afterEach, expect, it } from 'vitest';
import { logFileOf } from '../dataDir';
import { createEngine } from '../engine';
import { configureLogging } from '../log';
import { createMemorySecretStore } from '../secrets/memorySecretStore';
import { openDatabase, type Db } from '../store/database';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { pruneStep, RUNS_KEPT_PER_AREA } from './historyPrune';

const DAY = 86_400_000;
const NOW = Date.UTC(2025, 5, 1);
let tmp: TempDir;
afterEach(() => {
  configureLogging({ file: null, stderr: true });
  tmp.remove();
});

/** 150 runs of area 1 (the oldest still running), 3 jobs each, and 2000 log rows over 10 days. */
function fill(db: Db): void {
  db.prepare(
    `INSERT INTO areas (id, name, kind, center_lat, center_lon, radius_mi, min_lat, min_lon, max_lat, max_lon, created_at)
     VALUES (1, 'a', 'circle', 41.88, -87.63, 1, 41.8, -87.7, 41.9, -87.5, 0)`,
  ).run();
  const run = db.prepare(
    "INSERT INTO sync_runs (area_id, kind, state, started_at, since_day, window_start) VALUES (1, 'refresh', ?, ?, '2025-05-01', 0)",
  );
  const job = db.prepare(
    `INSERT INTO sync_jobs (run_id, parent_id, lat, lon, radius, cell_min_lat, cell_max_lat, cell_min_lon, cell_max_lon, since, updated_at)
     VALUES (?, ?, 41.88, -87.63, 0.01, 0, 0, 0, 0, '2025-05-01', 0)`,
  );
  const log = db.prepare(
    'INSERT INTO request_log (run_id, at, url, status, duration_ms) VALUES (?, ?, ?, 200, 5)',
  );
  db.transaction(() => {
    for (let i = 0; i < 150; i++) {
      const id = Number(run.run(i === 0 ? 'running' : 'done', NOW - (150 - i) * 3_600_000).lastInsertRowid);
      const root = Number(job.run(id, null).lastInsertRowid);
      job.run(id, root);
      job.run(id, root);
      log.run(id, NOW - 1000, 'https://x.test/crimes.json?key=REDACTED');
    }
    for (let i = 0; i < 2000; i++)
      log.run(null, NOW - (i % 10) * DAY - 1000, 'https://x.test/crimes.json?key=REDACTED');
  })();
}

const count = (db: Db, sql: string): number => db.prepare(sql).pluck().get() as number;

it('keeps a week of request log and the last 100 runs of each area, with their jobs', () => {
  tmp = makeTempDir('blotter-prune-');
  const db = openDatabase(`${tmp.path}/blotter.sqlite`);
  fill(db);
  let batches = 0;
  while (pruneStep(db, NOW, 100)) batches++;
  expect(batches).toBeGreaterThan(10); // small batches, each its own short transaction
  expect(count(db, 'SELECT count(*) FROM request_log WHERE at < ' + (NOW - 7 * DAY))).toBe(0);
  expect(count(db, 'SELECT count(*) FROM request_log')).toBe(1400 + 150); // 7 of 10 days, and the runs' rows
  // The last 100 runs, plus the old one still running (a resume point is never pruned).
  expect(count(db, 'SELECT count(*) FROM sync_runs')).toBe(RUNS_KEPT_PER_AREA + 1);
  expect(count(db, "SELECT count(*) FROM sync_runs WHERE state = 'running'")).toBe(1);
  expect(count(db, 'SELECT count(*) FROM sync_jobs')).toBe(3 * (RUNS_KEPT_PER_AREA + 1));
  expect(count(db, 'SELECT count(*) FROM sync_jobs WHERE run_id NOT IN (SELECT id FROM sync_runs)')).toBe(0);
  db.close();
});

it('prunes when the engine starts, off the call path', async () => {
  tmp = makeTempDir('blotter-prune-');
  const db = openDatabase(`${tmp.path}/blotter.sqlite`);
  fill(db);
  db.close();
  configureLogging({ file: logFileOf(tmp.path), stderr: false });
  const engine = createEngine({
    dataDir: tmp.path,
    secrets: createMemorySecretStore(),
    host: 'cli',
    version: 't',
    emit: () => undefined,
  });
  try {
    const ctx = engine.context;
    expect(count(ctx.db, 'SELECT count(*) FROM sync_runs')).toBe(150); // not pruned inside createEngine
    const deadline = Date.now() + 10_000;
    while (count(ctx.db, 'SELECT count(*) FROM sync_runs') > RUNS_KEPT_PER_AREA + 1 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    expect(count(ctx.db, 'SELECT count(*) FROM sync_runs')).toBe(RUNS_KEPT_PER_AREA + 1);
    expect(count(ctx.db, 'SELECT count(*) FROM request_log')).toBe(0); // all older than a week by now
  } finally {
    await engine.close();
  }
});
