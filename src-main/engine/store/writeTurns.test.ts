/**
 * The engine's write turns (writeTurns.ts): a long write on a second connection holds them, a write
 * on the engine's connection asked meanwhile waits on the event loop and runs after the holder's
 * commit — never meeting the held lock (the engine's connection here waits 0 ms for a lock, so a
 * write that met it would fail "database is locked") — in the order the turns were asked.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './database';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { openSecondWriter, WriteTurns } from './writeTurns';
import { BUSY_TIMEOUT_MS, localFailureOf } from './localFailure';

let dir: TempDir;
let engineDb: Db;
let helperDb: Db;

beforeEach(() => {
  dir = makeTempDir();
  const file = path.join(dir.path, 'blotter.sqlite');
  engineDb = openDatabase(file);
  engineDb.exec('CREATE TABLE turns_test (k INTEGER PRIMARY KEY, who TEXT)');
  helperDb = openSecondWriter(file);
});
afterEach(() => {
  helperDb.close();
  engineDb.close();
  dir.remove();
});

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 5));
const rows = () => engineDb.prepare('SELECT who FROM turns_test ORDER BY k').pluck().all();

describe('write turns', () => {
  it('runs a write at once when no long write holds the turns', async () => {
    const turns = new WriteTurns();
    let ran = false;
    const p = turns.take(() => (ran = true));
    expect(ran).toBe(true);
    expect(turns.busy).toBe(false);
    await expect(p).resolves.toBe(true);
    await expect(turns.take(() => (JSON.parse('{') as unknown) ?? 1)).rejects.toThrow(SyntaxError);
  });

  it('makes an engine write wait for a second connection’s commit, never meeting its lock', async () => {
    engineDb.pragma('busy_timeout = 0'); // meeting the lock would fail at once
    const turns = new WriteTurns();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const merge = turns.hold(async () => {
      helperDb.exec('BEGIN IMMEDIATE');
      helperDb.prepare("INSERT INTO turns_test (who) VALUES ('import')").run();
      await released; // the long write goes on while the engine thread answers other work
      helperDb.exec('COMMIT');
    });
    await tick();
    // Without the turns the engine's write meets the lock:
    expect(() => engineDb.prepare("INSERT INTO turns_test (who) VALUES ('x')").run()).toThrow(/locked|busy/i);
    expect(turns.busy).toBe(true);
    const page = turns.take(() => engineDb.prepare("INSERT INTO turns_test (who) VALUES ('page')").run());
    const second = turns.take(() => engineDb.prepare("INSERT INTO turns_test (who) VALUES ('page 2')").run());
    let answered = false;
    void page.then(() => (answered = true));
    await tick();
    expect(answered).toBe(false); // waiting, on the event loop: this test goes on running
    release();
    await Promise.all([merge, page, second]);
    expect(rows()).toEqual(['import', 'page', 'page 2']);
    expect(turns.busy).toBe(false);
  });

  it('gives turns in the order asked: a write asked first goes before a long write', async () => {
    const turns = new WriteTurns();
    const order: string[] = [];
    let release!: () => void;
    const first = turns.hold(() =>
      new Promise<void>((resolve) => (release = resolve)).then(() => order.push('a')),
    );
    const page = turns.take(() => order.push('page'));
    const merge = turns.hold(async () => {
      order.push('import');
    });
    const late = turns.take(() => order.push('late page'));
    await tick();
    expect(order).toEqual([]);
    release();
    await Promise.all([first, page, merge, late]);
    expect(order).toEqual(['a', 'page', 'import', 'late page']);
  });

  it('runs the waiting writes after a long write that failed, and rolls that one back', async () => {
    const turns = new WriteTurns();
    const merge = turns.hold(async () => {
      helperDb.exec('BEGIN IMMEDIATE');
      helperDb.prepare("INSERT INTO turns_test (who) VALUES ('import')").run();
      await tick();
      helperDb.exec('ROLLBACK');
      throw new Error('the merge failed');
    });
    const page = turns.take(() => engineDb.prepare("INSERT INTO turns_test (who) VALUES ('page')").run());
    await expect(merge).rejects.toThrow('the merge failed');
    await page;
    expect(rows()).toEqual(['page']);
    expect(turns.busy).toBe(false);
  });

  it('refuses at once, in words that say why, an engine write that did not ask for its turn during a long write', async () => {
    const turns = new WriteTurns(engineDb);
    let refused: unknown = null;
    let said: string | undefined;
    let waitedMs = -1;
    await turns.hold(async () => {
      helperDb.exec('BEGIN IMMEDIATE');
      helperDb.prepare("INSERT INTO turns_test (who) VALUES ('import')").run();
      const t = performance.now();
      try {
        engineDb.prepare("INSERT INTO turns_test (who) VALUES ('settings')").run();
      } catch (error) {
        refused = error;
        said = localFailureOf(error, engineDb.name)?.message; // as the dispatcher words it, meanwhile
      }
      waitedMs = performance.now() - t;
      await tick();
      helperDb.exec('COMMIT');
    });
    expect(waitedMs).toBeLessThan(500);
    expect(said).toMatch(/being written by an import/);
    expect(localFailureOf(refused, engineDb.name)?.code).toBe('database_locked');
    // After the long write the engine waits for another's lock as before, and the words are the usual ones.
    expect(engineDb.pragma('busy_timeout', { simple: true })).toBe(BUSY_TIMEOUT_MS);
    expect(localFailureOf(refused, engineDb.name)?.message).not.toMatch(/import/);
    expect(rows()).toEqual(['import']);
  });

  it('runs a call again in its turn when a long write refused its write, and only then', async () => {
    const turns = new WriteTurns(engineDb);
    let release!: () => void;
    const merge = turns.hold(async () => {
      helperDb.exec('BEGIN IMMEDIATE');
      helperDb.prepare("INSERT INTO turns_test (who) VALUES ('import')").run();
      await new Promise<void>((resolve) => (release = resolve));
      helperDb.exec('COMMIT');
    });
    await tick();
    let tries = 0;
    const save = turns.waitingOnRefusal(async () => {
      tries += 1;
      engineDb.prepare("INSERT INTO turns_test (who) VALUES ('settings')").run();
      return tries;
    });
    await tick();
    expect(tries).toBe(1); // refused at once, now waiting on the event loop
    expect(rows()).toEqual([]);
    release();
    await merge;
    expect(await save).toBe(2); // made once, after the long write's commit
    expect(rows()).toEqual(['import', 'settings']);

    // Any other failure, or "busy" with no long write of this engine's, is answered as it is.
    const other = turns.waitingOnRefusal(async () => {
      tries += 1;
      throw new Error('bad input');
    });
    await expect(other).rejects.toThrow('bad input');
    helperDb.exec('BEGIN IMMEDIATE'); // another process's lock, not a long write of this engine's
    engineDb.pragma('busy_timeout = 0');
    try {
      const before = tries;
      await expect(
        turns.waitingOnRefusal(async () => {
          tries += 1;
          engineDb.prepare("INSERT INTO turns_test (who) VALUES ('x')").run();
        }),
      ).rejects.toThrow(/locked|busy/i);
      expect(tries - before).toBe(1);
    } finally {
      helperDb.exec('ROLLBACK');
    }
  });

  it('opens the second writer with the engine’s busy timeout, in WAL mode', () => {
    expect(helperDb.pragma('busy_timeout', { simple: true })).toBeGreaterThanOrEqual(5000);
    expect(helperDb.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(helperDb.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
  });
});
