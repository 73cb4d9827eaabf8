import Database from 'better-sqlite3';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DatabaseTooNewError,
  MigrationError,
  SCHEMA_VERSION,
  openDatabase,
  userVersion,
  type Db,
} from './database';
import type { Migration } from './migrations/index';
import { boxParams, inBoxSql } from './incidents/boxQuery';
import { makeTempDir, type TempDir } from '../testing/tempDir';

const m1: Migration = { name: 'one', sql: 'CREATE TABLE one (a INTEGER) STRICT;' };
const m2: Migration = { name: 'two', sql: 'CREATE TABLE two (a INTEGER) STRICT;' };
const bad: Migration = {
  name: 'bad',
  sql: 'CREATE TABLE three (a INTEGER); INSERT INTO nowhere VALUES (1);',
};

const tables = (db: Db): string[] =>
  (
    db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[]
  ).map((r) => r.name);

describe('openDatabase', () => {
  let tmp: TempDir;
  let file: string;
  beforeEach(() => {
    tmp = makeTempDir();
    file = path.join(tmp.path, 'blotter.sqlite');
  });
  afterEach(() => tmp.remove());

  it('creates the first schema, sets user_version, and turns on WAL and foreign keys', () => {
    const db = openDatabase(file);
    try {
      expect(userVersion(db)).toBe(SCHEMA_VERSION);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(tables(db)).toEqual(
        expect.arrayContaining(['incidents', 'areas', 'settings', 'coverage', 'sync_runs', 'request_log']),
      );
    } finally {
      db.close();
    }
    const again = openDatabase(file); // reopening is a no-op
    expect(userVersion(again)).toBe(SCHEMA_VERSION);
    again.close();
  });

  it('keeps the spatial and text indexes in step with incidents', () => {
    const db = openDatabase(file);
    db.prepare(
      `INSERT INTO incidents (cdid, type, address, lat, lon, link, date_raw, occurred_local, timezone,
         occurred_utc, local_day, local_hour, local_weekday, first_seen, last_seen)
       VALUES (7, 'Theft', '100 Block of Main St', 40.1, -75.2, 'https://x/7', '01/02/25 03:04 PM',
         '2025-01-02T15:04', 'America/New_York', 0, '2025-01-02', 15, 4, 0, 0)`,
    ).run();
    const inBox = db
      .prepare(`SELECT cdid FROM incidents i WHERE ${inBoxSql('i')}`)
      .all(boxParams({ minLat: 40, maxLat: 41, minLon: -76, maxLon: -75 }));
    expect(inBox).toEqual([{ cdid: 7 }]);
    expect(db.prepare("SELECT rowid FROM incidents_fts WHERE incidents_fts MATCH 'main'").all()).toEqual([
      { rowid: 7 },
    ]);
    db.close();
  });

  it('applies all pending migrations in one transaction', () => {
    const db = openDatabase(file, [m1, m2]);
    expect(userVersion(db)).toBe(2);
    expect(tables(db)).toEqual(['one', 'two']);
    db.close();
  });

  it('leaves the file at its previous version when a migration fails, naming the migration', () => {
    openDatabase(file, [m1]).close();
    expect(() => openDatabase(file, [m1, m2, bad])).toThrow(MigrationError);
    expect(() => openDatabase(file, [m1, m2, bad])).toThrow(
      /migration 3 "bad" failed: no such table: nowhere.*left unchanged at schema 1/,
    );
    const db = new Database(file);
    expect(userVersion(db)).toBe(1);
    expect(tables(db)).toEqual(['one']); // neither "two" nor "three": one transaction, rolled back
    db.close();
  });

  it.each(['delete', 'wal'])(
    'refuses a database newer than the app and leaves it untouched (journal_mode %s)',
    (mode) => {
      const seed = new Database(file);
      seed.pragma(`journal_mode = ${mode}`);
      seed.exec('CREATE TABLE future (a INTEGER); INSERT INTO future VALUES (1);');
      seed.pragma('user_version = 99');
      seed.close();
      const bytes = readFileSync(file);
      const { mtimeMs } = statSync(file);

      expect(() => openDatabase(file)).toThrow(DatabaseTooNewError);
      expect(() => openDatabase(file)).toThrow(
        `This data file was written by a newer version of Blotter (schema 99; this app knows up to ${SCHEMA_VERSION}). ` +
          'Update Blotter, or open a different data folder with --data-dir.',
      );
      expect(readFileSync(file).equals(bytes)).toBe(true);
      expect(statSync(file).mtimeMs).toBe(mtimeMs);
      expect(existsSync(`${file}-wal`)).toBe(false);
    },
  );

  it('explains a file that is not a database', () => {
    writeFileSync(file, 'this is not sqlite, just some text that is long enough to have a header');
    // A local failure of its own (localFailure.ts): the file named, damaged, what to do.
    expect(() => openDatabase(file)).toThrow(expect.objectContaining({ code: 'database_corrupt' }));
    expect(() => openDatabase(file)).toThrow(new RegExp(`${file}.* is damaged .*backup`));
  });

  it('explains a folder that does not exist', () => {
    expect(() => openDatabase(path.join(tmp.path, 'missing', 'blotter.sqlite'))).toThrow(
      /Cannot open the data file .*missing.*--data-dir/,
    );
  });
});
