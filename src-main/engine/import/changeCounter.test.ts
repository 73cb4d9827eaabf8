/**
 * The incidents' change counter (store migration 006: one per row inserted or changed, whoever
 * writes) counts a large import's rows exactly, though the merge sets its per-row triggers aside
 * and adds them up once; the triggers are back afterwards.
 */
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
const rowOf = (cdid: number, seen: number, description: string | null = null): ImportRow =>
  [
    cdid,
    'Theft',
    `${cdid} MAIN ST`,
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
    description,
    null,
    seen,
    0,
    null,
    null,
  ] as unknown as ImportRow;

let batch = 0;
function stage(cdids: number[], row: (cdid: number) => ImportRow): string[] {
  batch++;
  const files = [0, 1].map((k) => path.join(t.dir.path, `c${batch}.stage-${k}.sqlite`));
  const writers = files.map((f) => new StageWriter(f));
  cdids.forEach((cdid, k) => writers[Math.floor(k / 100) % 2]?.add(k + 1, row(cdid)));
  for (const w of writers) w.close();
  return files;
}
const range = (from: number, n: number) => Array.from({ length: n }, (_, k) => from + k);
const counter = () => t.db.prepare('SELECT n FROM incident_changes WHERE id = 1').pluck().get() as number;
const merge = (files: string[], expectedNew: number) =>
  mergeRows(t.db, { stageFiles: files, expectedNew, repeats: false, now: NOW });

describe('the change counter across a large import', () => {
  it('adds one per row inserted and one per row changed, as its triggers would', () => {
    const start = counter();
    expect(
      merge(
        stage(range(1, 25_000), (c) => rowOf(c, NOW - 10)),
        25_000,
      ),
    ).toEqual({
      inserted: 25_000,
      updated: 0,
    });
    expect(counter()).toBe(start + 25_000);

    // 30,000 new rows (a large share: the bulk path again) and 25,000 held: 10,000 seen later
    // (replaced), 5,000 only filling a missing description, 10,000 unchanged.
    const cdids = range(1, 55_000);
    const row = (c: number) =>
      c <= 10_000
        ? rowOf(c, NOW + 10)
        : c <= 15_000
          ? rowOf(c, NOW - 20, 'a description')
          : c <= 25_000
            ? rowOf(c, NOW - 20)
            : rowOf(c, NOW);
    expect(merge(stage(cdids, row), 30_000)).toEqual({ inserted: 30_000, updated: 15_000 });
    expect(counter()).toBe(start + 25_000 + 45_000);

    // The triggers are back: a single write still counts.
    const names = t.db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'incident_changes_%'`)
      .pluck()
      .all();
    expect(names.sort()).toEqual(['incident_changes_ad', 'incident_changes_ai', 'incident_changes_au']);
    t.db.prepare(`UPDATE incidents SET type = 'Robbery' WHERE cdid = 20000`).run();
    expect(counter()).toBe(start + 70_001);
  });
});
