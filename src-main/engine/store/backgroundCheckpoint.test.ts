import { statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { deferCheckpoint } from './backgroundCheckpoint';
import { openDatabase, type Db } from './database';

let dir: TempDir;
let db: Db;
beforeEach(() => {
  dir = makeTempDir();
  db = openDatabase(path.join(dir.path, 'blotter.sqlite'));
});
afterEach(() => {
  db.close();
  dir.remove();
});

const walBytes = () => statSync(`${db.name}-wal`).size;

describe('a checkpoint deferred to a background thread', () => {
  it('keeps a large commit from checkpointing, then empties the log on its own connection', async () => {
    db.exec('CREATE TABLE big (v TEXT)');
    const deferred = deferCheckpoint(db);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const insert = db.prepare('INSERT INTO big (v) VALUES (?)');
    db.transaction(() => {
      for (let k = 0; k < 20_000; k++) insert.run(`row ${k} `.repeat(20));
    })();
    // The commit left every page in the log (well over the usual 1000-page checkpoint).
    expect(walBytes()).toBeGreaterThan(1000 * 4096);
    await deferred.release();
    expect(walBytes()).toBe(0);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(db.prepare('SELECT count(*) FROM big').pluck().get()).toBe(20_000);
  });
});

describe('writes while the background checkpoint runs', () => {
  it('never refuses a read-then-write transaction on the engine connection "database is locked"', async () => {
    db.exec('CREATE TABLE big (v TEXT); CREATE TABLE small (k INTEGER PRIMARY KEY, n INTEGER)');
    db.prepare('INSERT INTO small (k, n) VALUES (1, 0)').run();
    const insert = db.prepare('INSERT INTO big (v) VALUES (?)');
    // As the engine's own code may (a deferred transaction that reads, then writes).
    const read = db.prepare('SELECT n FROM small WHERE k = 1').pluck();
    const bump = db.prepare('UPDATE small SET n = ? WHERE k = 1');
    const step = db.transaction(() => bump.run((read.get() as number) + 1));
    let writes = 0;
    const refused: string[] = [];
    // A few rounds: the thread's lock, when it took one, lasted only moments.
    for (let round = 0; round < 4; round++) {
      const deferred = deferCheckpoint(db);
      db.transaction(() => {
        for (let k = 0; k < 60_000; k++) insert.run(`row ${round} ${k} `.repeat(20));
      })();
      let released = false;
      const done = deferred.release().then(() => {
        released = true;
      });
      while (!released) {
        // Idle a moment (the thread takes what locks it takes), then read and write at once.
        await new Promise((r) => setImmediate(r));
        try {
          step();
          writes++;
        } catch (error) {
          refused.push(String(error));
        }
      }
      await done;
    }
    expect(refused).toEqual([]);
    expect(db.prepare('SELECT n FROM small WHERE k = 1').pluck().get()).toBe(writes);
    expect(writes).toBeGreaterThan(0);
  });
});
