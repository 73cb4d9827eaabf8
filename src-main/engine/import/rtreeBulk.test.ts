import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiRow, openTestEngine, writeIncidents, type TestEngine } from '../export/exportTesting';
import { float32Down, float32Up, rebuildIncidentsRtree, rtreeNodeSize } from './rtreeBulk';
import { packRtreeInBackground } from './rtreePackThread';

let t: TestEngine;
beforeEach(() => (t = openTestEngine()));
afterEach(() => t.close());

const contents = () => t.db.prepare('SELECT * FROM incidents_rtree ORDER BY cdid').all();
const box = (lat: number, lon: number, r: number) =>
  t.db
    .prepare(
      'SELECT cdid FROM incidents_rtree WHERE min_lat >= ? AND max_lat <= ? AND min_lon >= ? AND max_lon <= ? ORDER BY cdid',
    )
    .pluck()
    .all(lat - r, lat + r, lon - r, lon + r);

describe('bulk R*Tree', () => {
  it('rounds outwards to float32 exactly as the rtree module does', () => {
    for (const d of [41.881234567, -87.6298765, 0.1, -0.1, 89.99999999, 1e-7]) {
      expect(float32Down(d)).toBeLessThanOrEqual(d);
      expect(float32Up(d)).toBeGreaterThanOrEqual(d);
      expect(float32Up(d) - float32Down(d)).toBeLessThan(Math.abs(d) * 1e-6 + 1e-12);
    }
  });

  it('packs the same entries the module stores one by one, into a tree rtreecheck accepts', () => {
    const rows = Array.from({ length: 5000 }, (_, k) =>
      apiRow(1 + k * 7, { lat: 40 + ((k * 7919) % 1000) / 997, lon: -90 + ((k * 104729) % 1000) / 991 }),
    );
    writeIncidents(t.db, rows);
    const before = contents();
    const queries = [box(40.5, -89.5, 0.1), box(40.9, -89.1, 0.05), box(40, -90, 2)];
    const verdict = t.db.transaction(() => rebuildIncidentsRtree(t.db, undefined, 'full'))();
    expect(verdict).toBe('ok');
    expect(contents()).toEqual(before);
    expect([box(40.5, -89.5, 0.1), box(40.9, -89.1, 0.05), box(40, -90, 2)]).toEqual(queries);
    // The module keeps working on the packed tree.
    writeIncidents(t.db, [apiRow(999_999, { lat: 40.5, lon: -89.5 })]);
    t.db.prepare('DELETE FROM incidents WHERE cdid = 8').run();
    expect(t.db.prepare(`SELECT rtreecheck('incidents_rtree')`).pluck().get()).toBe('ok');
    expect(box(40.5, -89.5, 0.001)).toContain(999_999);
  });

  it('handles an empty table and a single node', () => {
    expect(t.db.transaction(() => rebuildIncidentsRtree(t.db, undefined, 'full'))()).toBe('ok');
    writeIncidents(t.db, [apiRow(1), apiRow(2)]);
    expect(t.db.transaction(() => rebuildIncidentsRtree(t.db, undefined, 'full'))()).toBe('ok');
    expect(contents()).toHaveLength(2);
  });

  it('packs on another thread the same tree, taken inside a transaction', () => {
    const rows = Array.from({ length: 3000 }, (_, k) =>
      apiRow(10 + k * 3, { lat: 41 + ((k * 7919) % 1000) / 1000, lon: -88 + ((k * 104729) % 1000) / 1000 }),
    );
    writeIncidents(t.db, rows);
    const before = contents();
    const size = rows.length;
    // The positions in a shuffled order, as a file may hold them.
    const order = rows.map((_, k) => (k * 1237) % size);
    const points = {
      cdid: Float64Array.from(order, (k) => rows[k]?.cdid as number),
      lat: Float64Array.from(order, (k) => rows[k]?.lat as number),
      lon: Float64Array.from(order, (k) => rows[k]?.lon as number),
      size,
    };
    const packing = packRtreeInBackground(points, rtreeNodeSize(t.db));
    const verdict = t.db.transaction(() => {
      const packed = packing.take();
      expect(packed?.ids.length).toBe(size);
      return rebuildIncidentsRtree(t.db, undefined, 'full', packed);
    })();
    expect(verdict).toBe('ok');
    expect(contents()).toEqual(before);
    expect(points.size).toBe(size); // the caller's positions are untouched
    expect(points.cdid[1]).toBe(rows[1237]?.cdid);
  });
});
