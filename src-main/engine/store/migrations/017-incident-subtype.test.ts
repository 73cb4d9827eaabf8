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

describe('migration 017 (incident-subtype)', () => {
  it('adds the subtype to an older file, its searches answering as before, and the text index finds subtypes from then on', () => {
    dir = makeTempDir();
    const file = `${dir.path}/old.sqlite`;
    const old = openDatabase(file, migrations.slice(0, 15));
    const add = old.prepare(INSERT);
    add.run(1, '100 Block of Washington Ave', 'bicycle taken from porch');
    add.run(2, '200 Block of Main St', null);
    const queries = ['washington', 'porch', 'main st', 'larceny'];
    const before = queries.map((q) => search(old, q));
    old.close();

    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(queries.map((q) => search(db, q))).toEqual(before);
    expect(db.prepare('SELECT subtype FROM incidents ORDER BY cdid').pluck().all()).toEqual([null, null]);

    // Its triggers index the subtype: an insert, an edit and a delete are searched at once.
    db.prepare(
      `${INSERT.replace('last_seen)', 'last_seen, subtype)').replace('0, 0)', "0, 0, 'Larceny Theft')")}`,
    ).run(3, '9 Elm St', null);
    expect(search(db, 'larceny')).toEqual([3]);
    db.prepare(`UPDATE incidents SET subtype = 'Malicious Mischief' WHERE cdid = 1`).run();
    expect(search(db, 'mischief')).toEqual([1]);
    expect(search(db, 'porch')).toEqual([1]);
    db.prepare(`DELETE FROM incidents WHERE cdid = 3`).run();
    expect(search(db, 'larceny')).toEqual([]);
    db.prepare(`INSERT INTO incidents_fts (incidents_fts, rank) VALUES ('integrity-check', 1)`).run();
    db.close();
  });
});
