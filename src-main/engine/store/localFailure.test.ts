/**
 * Local failures get their own codes and words (issue 11, item 14): a full disk names the folder and
 * the space left, a held write lock says another Blotter has the file, a damaged page names the file
 * and what to do, a broken native module says how to rebuild it. None is blamed on the service.
 */
import { closeSync, openSync, statSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../src-sim/index';
import { dbFileOf, logFileOf } from '../dataDir';
import { createEngine, type Engine } from '../engine';
import { configureLogging } from '../log';
import { createMemorySecretStore } from '../secrets/memorySecretStore';
import { connectionOf } from '../sync/engineSync';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { openDatabase } from './database';
import { formatBytes, localFailureOf } from './localFailure';

const KEY = 'local-failure-key-14';
let sim: Simulator;
let tmp: TempDir;
let engine: Engine | null = null;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 9,
    scale: 20_000,
    spanDays: 40,
    keys: [{ key: KEY, plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: 6000, windowDays: 30 }],
  });
});
afterAll(() => sim.close());
afterEach(async () => {
  await engine?.close();
  engine = null;
  configureLogging({ file: null, stderr: true });
  tmp.remove();
});

async function open(): Promise<Engine> {
  tmp = makeTempDir('blotter-local-');
  configureLogging({ file: logFileOf(tmp.path), stderr: false });
  engine = createEngine({
    dataDir: tmp.path,
    secrets: createMemorySecretStore(),
    host: 'web',
    version: 't',
    emit: () => undefined,
    scheduler: false,
  });
  const ok = async (p: Promise<{ ok: boolean }>) => expect((await p).ok).toBe(true);
  await ok(
    engine.dispatch('updateSettings', {
      baseUrl: sim.url,
      plan: 'enterprise',
      ratePerMinute: 6000,
      windowDays: 30,
    }),
  );
  await ok(engine.dispatch('setApiKey', { key: KEY }));
  return engine;
}

/** Lets the file grow by only a few pages: SQLite then answers SQLITE_FULL, as on a full disk. */
function fillDisk(db: Database.Database, spare = 2): void {
  db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + spare}`);
}

describe('a full disk', () => {
  it('stops a sync as disk_full, naming the folder and the space left, not as a bad answer', async () => {
    const e = await open();
    const created = await e.dispatch('createArea', {
      name: 'Loop',
      shape: { kind: 'circle', lat: 41.8837, lon: -87.6289, radiusMi: 0.5 },
    });
    expect(created.ok).toBe(true);
    fillDisk(e.context.db);
    const service = e.context.services.sync;
    const [summary] = await service.syncAreas(
      service.areas.list(),
      await connectionOf(e.context, e.context.services.fetch),
    );
    expect(summary?.state).toBe('failed');
    expect(summary?.error?.code).toBe('disk_full');
    expect(summary?.error?.message).toContain(`could not write to ${tmp.path}`);
    expect(summary?.error?.message).toMatch(/\(\d+(\.\d)? (bytes|KB|MB|GB|TB) free there\)/);
    // The window probe and the one search: the page is not asked for again as if the service had
    // answered badly (a bad_response is retried with backoff).
    expect(service.stats().requests).toBeLessThanOrEqual(2);
  });

  it('answers an import that cannot be written as disk_full, not internal', async () => {
    const e = await open();
    const file = path.join(tmp.path, 'rows.csv');
    const rows = Array.from(
      { length: 3000 },
      (_, i) =>
        `${900_000_000 + i},Theft,2025-03-0${1 + (i % 9)}T10:00,America/Chicago,${i} W Long Address St,41.88,-87.63`,
    );
    writeFileSync(file, ['cdid,type,occurred_local,timezone,address,lat,lon', ...rows].join('\n'));
    const preview = await e.dispatch('previewImport', { source: { path: file } });
    if (!preview.ok) throw new Error(preview.error.message);
    fillDisk(e.context.db);
    const r = await e.dispatch('runImport', { importId: preview.value.importId });
    expect(r).toMatchObject({ ok: false, error: { code: 'disk_full' } });
    if (!r.ok) expect(r.error.message).toContain(tmp.path);
  });
});

describe('a data file another Blotter holds', () => {
  it('answers database_locked, saying another Blotter has it', async () => {
    const e = await open();
    e.context.db.pragma('busy_timeout = 50');
    const other = new Database(dbFileOf(tmp.path));
    other.exec('BEGIN IMMEDIATE');
    try {
      const r = await e.dispatch('createArea', {
        name: 'Loop',
        shape: { kind: 'circle', lat: 41.8837, lon: -87.6289, radiusMi: 0.5 },
      });
      expect(r).toMatchObject({ ok: false, error: { code: 'database_locked' } });
      if (!r.ok) expect(r.error.message).toMatch(/another Blotter/);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  });
});

describe('a damaged data file', () => {
  it('is database_corrupt, naming the file and what to do', () => {
    tmp = makeTempDir('blotter-corrupt-');
    const file = path.join(tmp.path, 'blotter.sqlite');
    const db = openDatabase(file);
    db.pragma('journal_mode = DELETE');
    const insert = db.prepare('INSERT INTO request_log (at, url, status, duration_ms) VALUES (?, ?, 200, 5)');
    db.transaction(() => {
      for (let i = 0; i < 5000; i++)
        insert.run(i, `https://example.test/crimes.json?i=${i}&pad=${'p'.repeat(80)}`);
    })();
    db.close();
    // Overwrite pages deep in the file (never the header page).
    const pageSize = 4096;
    const pages = statSync(file).size / pageSize;
    const fd = openSync(file, 'r+');
    for (let p = Math.floor(pages / 2); p < pages - 1; p++)
      writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, p * pageSize);
    closeSync(fd);

    const again = openDatabase(file);
    let caught: unknown;
    try {
      again.prepare('SELECT count(*), sum(length(url)) FROM request_log').get();
    } catch (error) {
      caught = error;
    } finally {
      again.close();
    }
    const local = localFailureOf(caught, file);
    expect(local?.code).toBe('database_corrupt');
    expect(local?.message).toContain(file);
    expect(local?.message).toMatch(/backup/);
  });
});

describe('a native module built for something else', () => {
  it('says so and how to rebuild it, not that the folder is unwritable', () => {
    tmp = makeTempDir('blotter-native-');
    const bogus = path.join(tmp.path, 'better_sqlite3.node');
    writeFileSync(bogus, 'not a shared object');
    let caught: unknown;
    try {
      new Database(':memory:', { nativeBinding: bogus });
    } catch (error) {
      caught = error;
    }
    const local = localFailureOf(caught);
    expect(local?.code).toBe('native_module');
    expect(local?.message).toMatch(/npm rebuild better-sqlite3/);
    expect(local?.message).not.toMatch(/writable/);

    const abi = Object.assign(
      new Error(
        "The module '/x/better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 130. This version of Node.js requires NODE_MODULE_VERSION 127.",
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );
    expect(localFailureOf(abi)?.code).toBe('native_module');
  });
});

describe('formatBytes', () => {
  it('reads like a person would say it', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(20 * 1024 ** 3)).toBe('20 GB');
    tmp = makeTempDir();
  });
});
