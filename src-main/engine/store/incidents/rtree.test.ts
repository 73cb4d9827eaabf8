import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../../testing/tempDir';
import { openDatabase, type Db } from '../database';
import { recordOf } from './apiRecord';
import { createIncidentRepo } from './incidentRepo';
import { hilbertIndex, rebuildIncidentsRtree } from './rtree';

let tmp: TempDir;
let db: Db;
beforeEach(() => {
  tmp = makeTempDir();
  db = openDatabase(path.join(tmp.path, 'blotter.sqlite'));
});
afterEach(() => {
  db.close();
  tmp.remove();
});

const write = (points: [number, number][], first = 1) => {
  const repo = createIncidentRepo(db);
  db.transaction(() =>
    points.forEach(([lat, lon], k) =>
      repo.upsertFromApi(
        recordOf({
          cdid: first + k,
          type: 'Theft',
          address: 'A St',
          lat,
          lon,
          link: 'https://crime.example.test/i',
          date: '05/10/25 01:30 PM',
        }),
        1000,
      ),
    ),
  )();
};
const contents = () => db.prepare('SELECT * FROM incidents_rtree ORDER BY cdid').all();
const inBox = (lat: number, lon: number, r: number) =>
  db
    .prepare(
      'SELECT cdid FROM incidents_rtree WHERE min_lat >= ? AND max_lat <= ? AND min_lon >= ? AND max_lon <= ? ORDER BY cdid',
    )
    .pluck()
    .all(lat - r, lat + r, lon - r, lon + r);

describe('R*Tree rebuilt through SQLite', () => {
  it('numbers the cells of a block along one curve, neighbours next to each other', () => {
    const block = [];
    for (let x = 0; x < 4; x++) for (let y = 0; y < 4; y++) block.push(hilbertIndex(x, y));
    expect(block.sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, k) => k));
    const at = new Map<number, [number, number]>();
    for (let x = 0; x < 8; x++) for (let y = 0; y < 8; y++) at.set(hilbertIndex(x, y), [x, y]);
    for (let d = 1; d < 64; d++) {
      const [ax, ay] = at.get(d - 1) as [number, number];
      const [bx, by] = at.get(d) as [number, number];
      expect(Math.abs(ax - bx) + Math.abs(ay - by)).toBe(1);
    }
    expect(hilbertIndex(65535, 0)).toBe(65536 * 65536 - 1);
  });

  it('holds the same entries the triggers stored one by one, in a tree SQLite checks and keeps using', () => {
    write(
      Array.from({ length: 5000 }, (_, k) => [
        40 + ((k * 7919) % 1000) / 997,
        -90 + ((k * 104729) % 1000) / 991,
      ]),
    );
    const before = contents();
    const queries = [inBox(40.5, -89.5, 0.1), inBox(40.9, -89.1, 0.05), inBox(40, -90, 2)];
    db.transaction(() => rebuildIncidentsRtree(db))();
    expect(contents()).toEqual(before);
    expect([inBox(40.5, -89.5, 0.1), inBox(40.9, -89.1, 0.05), inBox(40, -90, 2)]).toEqual(queries);
    expect(db.prepare(`SELECT rtreecheck('incidents_rtree')`).pluck().get()).toBe('ok');
    // The triggers keep maintaining the rebuilt tree.
    write([[40.5, -89.5]], 999_999);
    db.prepare('DELETE FROM incidents WHERE cdid = 8').run();
    expect(db.prepare(`SELECT rtreecheck('incidents_rtree')`).pluck().get()).toBe('ok');
    expect(inBox(40.5, -89.5, 0.001)).toContain(999_999);
    expect(contents()).toHaveLength(5000);
  });

  it('handles an empty table and points that all share one place', () => {
    db.transaction(() => rebuildIncidentsRtree(db))();
    expect(contents()).toEqual([]);
    write([
      [41.88, -87.63],
      [41.88, -87.63],
    ]);
    db.transaction(() => rebuildIncidentsRtree(db))();
    expect(contents()).toHaveLength(2);
    expect(db.prepare(`SELECT rtreecheck('incidents_rtree')`).pluck().get()).toBe('ok');
  });
});
