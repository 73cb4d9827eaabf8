/**
 * A mapped file's hashed ids come in random order; each preview thread sorts its staged rows by
 * cdid (stage.ts `by_cdid`) so the run merges sorted runs instead of sorting whole rows. The
 * archive it writes is the one the sort wrote: every row, in cdid order, with its provenance —
 * into an empty archive and into one that already holds some of the rows.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../export/exportTesting';
import { mergeRows } from './merge';
import type { ImportRow } from './normalize';
import { StageWriter } from './stage';

let t: TestEngine;
beforeEach(() => (t = openTestEngine()));
afterEach(() => t.close());

const NOW = 1_760_000_000_000;
const origin = { fileName: 'rms.csv', mappingName: 'RMS', mappingHash: 'abc' };
/** A checked row of cdid `cdid` (negative: a namespaced id), seen at `seen`. */
const rowOf = (cdid: number, seen: number | null = null): ImportRow =>
  [
    cdid,
    `Theft ${cdid}`,
    `${-cdid} MAIN ST`,
    32.7,
    -96.8,
    '',
    '04/01/25 01:00 PM',
    '2025-04-01T13:00',
    'America/Chicago',
    1_743_530_400_000,
    null,
    '2025-04-01',
    13,
    2,
    null,
    null,
    seen,
    0,
    JSON.stringify({ Beat: String(-cdid % 40) }),
    `25-${-cdid}`,
  ] as unknown as ImportRow;

/** Cdids in a shuffled order, staged in two files as two check threads would (alternate chunks). */
function stageShuffled(n: number, seen: number | null = null): string[] {
  const cdids = Array.from({ length: n }, (_, k) => -1 - ((k * 7919) % n));
  const files = [0, 1].map((k) => path.join(t.dir.path, `x.stage-${k}.sqlite`));
  const writers = files.map((f) => new StageWriter(f));
  cdids.forEach((cdid, row) => writers[Math.floor(row / 100) % 2]?.add(row + 1, rowOf(cdid, seen)));
  for (const w of writers) w.close();
  return files;
}

const archive = () =>
  t.db
    .prepare('SELECT cdid, type, address, last_seen, source FROM incidents ORDER BY rowid')
    .raw()
    .all() as unknown[][];
const provenance = () =>
  t.db
    .prepare('SELECT cdid, external_id, attributes FROM incident_imports ORDER BY cdid')
    .raw()
    .all() as unknown[][];

describe('staged rows sorted by cdid on the check threads', () => {
  it('keeps each staging file of random ids in cdid order, and the run writes every row in that order', () => {
    const n = 30_000;
    const files = stageShuffled(n);
    const stage = new Database(files[0] as string, { readonly: true });
    const cdids = stage.prepare('SELECT cdid FROM by_cdid').pluck().all() as number[];
    expect(cdids.length).toBe(stage.prepare('SELECT count(*) FROM rows').pluck().get());
    expect(cdids).toEqual([...cdids].sort((a, b) => a - b));
    stage.close();

    const cache = t.db.pragma('cache_size', { simple: true });
    const counts = mergeRows(t.db, {
      stageFiles: files,
      expectedNew: n,
      repeats: false,
      ascending: false,
      origin,
      now: NOW,
    });
    expect(counts).toEqual({ inserted: n, updated: 0 });
    // The indexes set aside came back whole (built in small sorted runs), the cache as it was.
    expect(t.db.pragma('cache_size', { simple: true })).toBe(cache);
    expect(t.db.pragma('integrity_check', { simple: true })).toBe('ok');
    const indexes = t.db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'incidents' AND sql IS NOT NULL`,
      )
      .pluck()
      .all();
    expect(indexes).toEqual(expect.arrayContaining(['incidents_by_day', 'incidents_by_lon_cell']));
    expect(t.db.prepare(`SELECT count(*) FROM incidents WHERE local_day = '2025-04-01'`).pluck().get()).toBe(
      n,
    );
    const rows = archive();
    expect(rows.length).toBe(n);
    expect(rows.map((r) => r[0])).toEqual(Array.from({ length: n }, (_, k) => -n + k));
    expect(rows[0]).toEqual([-n, `Theft ${-n}`, `${n} MAIN ST`, NOW, 'import']);
    const kept = provenance();
    expect(kept.length).toBe(n);
    expect(kept[5]).toEqual([-n + 5, `25-${n - 5}`, JSON.stringify({ Beat: String((n - 5) % 40) })]);
  });

  it('merges into an archive that holds some of the rows: replaced when seen later, the rest inserted', () => {
    const n = 2_000;
    mergeRows(t.db, {
      stageFiles: stageShuffled(n, NOW - 10),
      expectedNew: n,
      repeats: false,
      ascending: false,
      origin,
      now: NOW,
    });
    const files = stageShuffled(n + 500, NOW + 10);
    const counts = mergeRows(t.db, {
      stageFiles: files,
      expectedNew: 500,
      repeats: false,
      ascending: false,
      origin,
      now: NOW,
    });
    expect(counts).toEqual({ inserted: 500, updated: n });
    const rows = archive();
    expect(rows.length).toBe(n + 500);
    expect(new Set(rows.map((r) => r[3]))).toEqual(new Set([NOW + 10]));
    expect(provenance().length).toBe(n + 500);
  });

  it('makes no sorted copy of a file that repeats a cdid; the run still writes its rows copy by copy', () => {
    const file = path.join(t.dir.path, 'r.stage-0.sqlite');
    const w = new StageWriter(file);
    w.add(1, rowOf(-5, NOW - 10));
    w.add(2, rowOf(-9, NOW - 10));
    w.add(3, rowOf(-5, NOW + 10));
    w.close();
    const stage = new Database(file, { readonly: true });
    expect(stage.prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'by_cdid'`).pluck().get()).toBe(0);
    stage.close();
    const counts = mergeRows(t.db, {
      stageFiles: [file],
      expectedNew: 2,
      repeats: true,
      ascending: false,
      origin,
      now: NOW,
    });
    expect(counts).toEqual({ inserted: 2, updated: 0 });
    expect(archive().map((r) => [r[0], r[3]])).toEqual([
      [-9, NOW - 10],
      [-5, NOW + 10],
    ]);
  });
});
