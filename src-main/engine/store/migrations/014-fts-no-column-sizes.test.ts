import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../../testing/tempDir';
import { toFtsQuery } from '../../query/fts';
import { openDatabase } from '../database';
import { migrations } from './index';

let dir: TempDir | null = null;
afterEach(() => dir?.remove());

const INSERT = `INSERT INTO incidents (cdid, type, address, lat, lon, link, date_raw, occurred_local, timezone,
  occurred_utc, local_day, local_hour, local_weekday, description, first_seen, last_seen)
  VALUES (?, 'Theft', ?, 40.1, -75.2, 'https://x', '01/02/25 03:04 PM', '2025-01-02T15:04',
  'America/New_York', 0, '2025-01-02', 15, 4, ?, 0, 0)`;

const search = (db: ReturnType<typeof openDatabase>, text: string): number[] =>
  db
    .prepare('SELECT rowid FROM incidents_fts WHERE incidents_fts MATCH ? ORDER BY rowid')
    .pluck()
    .all(toFtsQuery(text)) as number[];

describe('migration 014 (fts-no-column-sizes)', () => {
  it('keeps every search of an older file answering the same, and the text index in step afterwards', () => {
    dir = makeTempDir();
    const file = `${dir.path}/old.sqlite`;
    const old = openDatabase(file, migrations.slice(0, 13));
    const add = old.prepare(INSERT);
    add.run(1, '100 Block of Washington Ave', 'bicycle taken from porch');
    add.run(2, '200 Block of Main St', null);
    add.run(3, 'Main St & Washington Ave', 'porch light broken');
    const queries = ['washington', 'wash', '"block of main"', 'porch', 'main st', 'nothing'];
    const before = queries.map((q) => search(old, q));
    old.close();

    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(queries.map((q) => search(db, q))).toEqual(before);
    expect(before).toEqual([[1, 3], [1, 3], [2], [1, 3], [2, 3], []]);
    // No per-row column sizes are kept any more.
    const docsize = db.prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'incidents_fts_docsize'`);
    expect(docsize.pluck().get()).toBe(0);

    // The triggers still keep it: an insert, an edit and a delete are searched at once.
    db.prepare(INSERT).run(4, '9 Elm St', 'porch');
    db.prepare(`UPDATE incidents SET description = 'garage' WHERE cdid = 1`).run();
    db.prepare(`DELETE FROM incidents WHERE cdid = 3`).run();
    expect(search(db, 'porch')).toEqual([4]);
    expect(search(db, 'garage')).toEqual([1]);
    expect(search(db, 'washington')).toEqual([1]);
    db.prepare(`INSERT INTO incidents_fts (incidents_fts, rank) VALUES ('integrity-check', 1)`).run();
    db.close();
  });
});
