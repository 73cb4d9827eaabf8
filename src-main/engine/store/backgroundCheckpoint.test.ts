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
