/**
 * The kept-columns scan in slices (issue 31): the same columns, widths and order as the one scan
 * (keptColumnsOf), with a turn of the event loop between slices of the table.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../store/database';
import { keptColumnsInSlices, keptColumnsOf } from './keptColumns';

describe('the kept columns, read in slices', () => {
  it('finds the one scan’s columns, widths and order, and yields between slices', async () => {
    const db = openDatabase(':memory:');
    db.prepare("INSERT INTO import_runs (id, file_name, imported_at) VALUES (1, 'a.csv', 0)").run();
    const put = db.prepare('INSERT INTO incident_imports (cdid, run_id, attributes) VALUES (?, 1, ?)');
    db.transaction(() => {
      for (let cdid = 1; cdid <= 50_000; cdid++) {
        // Keys first seen at different rows, in different positions; one long value late on.
        const attributes: Record<string, string> = { Beat: `B${cdid % 97}` };
        if (cdid > 20_000) attributes['Unit'] = 'U'.repeat(cdid % 7);
        if (cdid % 5 === 0) attributes['Zeta'] = 'z';
        if (cdid === 47_001) attributes['Beat'] = 'ü'.repeat(300);
        if (cdid > 31_000) attributes['Alpha'] = 'a';
        put.run(cdid * 3, cdid % 11 === 0 ? null : JSON.stringify(attributes));
      }
    })();
    let pauses = 0;
    const { kept, longestText } = await keptColumnsInSlices(db, async () => {
      pauses++;
    });
    expect(kept).toEqual(keptColumnsOf(db));
    expect(kept.map((k) => k.key)).toEqual(['Beat', 'Zeta', 'Unit', 'Alpha']);
    expect(kept[0]?.bytes).toBe(600);
    const longest = db
      .prepare('SELECT max(length(CAST(attributes AS BLOB))) FROM incident_imports')
      .pluck()
      .get();
    expect(longestText).toBe(longest);
    // 45,455 mapped rows in slices of 15,000: four turns of the event loop, not one long scan.
    expect(pauses).toBe(4);
    db.close();
  });

  it('an archive without mapped rows has none (and a width of 1)', async () => {
    const db = openDatabase(':memory:');
    expect(await keptColumnsInSlices(db)).toEqual({ kept: [], longestText: 1 });
    db.close();
  });
});
