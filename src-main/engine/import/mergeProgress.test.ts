/**
 * The run's merge writes the staged rows in chunks inside its one transaction, reporting progress
 * between them (issue 31: a million rows in one statement left the import silent for 5–19 s). The
 * archive is the one a single statement wrote — every row, in the same order — and a failure
 * between chunks leaves nothing written.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../export/exportTesting';
import { mergeRows, type MergeInput } from './merge';
import type { ImportRow } from './normalize';
import { StageWriter } from './stage';

let t: TestEngine;
beforeEach(() => (t = openTestEngine()));
afterEach(() => t.close());

const NOW = 1_760_000_000_000;
const origin = { fileName: 'rms.csv', mappingName: 'RMS', mappingHash: 'abc' };
const rowOf = (cdid: number, seen: number | null = null): ImportRow =>
  [
    cdid,
    `Theft ${cdid}`,
    `${Math.abs(cdid)} MAIN ST`,
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
    JSON.stringify({ Beat: String(Math.abs(cdid) % 40) }),
    `25-${Math.abs(cdid)}`,
  ] as unknown as ImportRow;

/** `cdids` staged in two files as two check threads would (alternate chunks of 100 rows). */
function stage(name: string, cdids: number[], seen: number | null = null): string[] {
  const files = [0, 1].map((k) => path.join(t.dir.path, `${name}.stage-${k}.sqlite`));
  const writers = files.map((f) => new StageWriter(f));
  cdids.forEach((cdid, row) => writers[Math.floor(row / 100) % 2]?.add(row + 1, rowOf(cdid, seen)));
  for (const w of writers) w.close();
  return files;
}
/** Namespaced ids in a shuffled order (a mapped file's hashed ids: staged with sorted copies). */
const shuffled = (n: number) => Array.from({ length: n }, (_, k) => -1 - ((k * 7919) % n));
const rising = (n: number, from = 1) => Array.from({ length: n }, (_, k) => from + k);

const archive = () =>
  t.db.prepare('SELECT cdid, last_seen, source FROM incidents ORDER BY rowid').raw().all() as unknown[][];

function merge(files: string[], over: Partial<MergeInput>): { progress: number[]; counts: unknown } {
  const progress: number[] = [];
  const counts = mergeRows(t.db, {
    stageFiles: files,
    expectedNew: 0,
    repeats: false,
    origin,
    now: NOW,
    chunkRows: 1000,
    onProgress: (f) => progress.push(f),
    ...over,
  });
  return { progress, counts };
}

/** Progress during the rows step: several reports, rising, before the step's end (0.4). */
function expectRowsProgress(progress: number[]): void {
  const rows = progress.filter((f) => f > 0 && f < 0.4);
  expect(rows.length).toBeGreaterThanOrEqual(5);
  expect(progress.every((f, k) => k === 0 || f >= (progress[k - 1] as number))).toBe(true);
  expect(progress).toContain(0.4);
}

describe('the merge in chunks', () => {
  it('reports progress while it writes the rows of an empty archive, in cdid order or file order', () => {
    const n = 24_000; // a bulk merge: the indexes are built again, each one reported
    const sorted = merge(stage('a', shuffled(n)), { expectedNew: n, ascending: false });
    expect(sorted.counts).toEqual({ inserted: n, updated: 0 });
    expectRowsProgress(sorted.progress);
    expect(sorted.progress.filter((f) => f > 0.4 && f < 0.55).length).toBeGreaterThanOrEqual(1);
    // Every row once, in cdid order, as the one statement wrote them.
    expect(archive().map((r) => r[0])).toEqual(Array.from({ length: n }, (_, k) => -n + k));
    expect(t.db.prepare('SELECT count(*) FROM incident_imports').pluck().get()).toBe(n);

    const more = merge(stage('b', rising(8_000, 1)), { expectedNew: 8_000, ascending: true });
    expect(more.counts).toEqual({ inserted: 8_000, updated: 0 });
    expectRowsProgress(more.progress);
    expect(
      archive()
        .slice(n)
        .map((r) => r[0]),
    ).toEqual(rising(8_000, 1));
    expect(t.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('reports progress merging into rows it holds, set-wise and copy by copy', () => {
    merge(stage('a', rising(3_000), NOW - 10), { expectedNew: 3_000 });
    // Half held (seen later: replaced), half new.
    const setwise = merge(stage('b', rising(6_000), NOW + 10), { expectedNew: 3_000 });
    expect(setwise.counts).toEqual({ inserted: 3_000, updated: 3_000 });
    expectRowsProgress(setwise.progress);
    expect(new Set(archive().map((r) => r[1]))).toEqual(new Set([NOW + 10]));
    // The same file again: every row held and unchanged — the held rows' copy and checks report too.
    const again = merge(stage('again', rising(6_000), NOW + 10), {});
    expect(again.counts).toEqual({ inserted: 0, updated: 0 });
    expectRowsProgress(again.progress);
    expect(again.progress.filter((f) => f > 0 && f <= 0.2).length).toBeGreaterThanOrEqual(8);
    // A file that repeats a cdid goes copy by copy: the later copy wins.
    const repeated = [...rising(24_000), 6_500];
    const byRow = merge(stage('c', repeated, NOW + 20), { expectedNew: 18_000, repeats: true });
    expect(byRow.counts).toEqual({ inserted: 18_000, updated: 6_000 });
    expectRowsProgress(byRow.progress);
    expect(archive().length).toBe(24_000);
  });

  it('a failure between chunks leaves nothing written', () => {
    merge(stage('a', rising(2_000), NOW - 10), { expectedNew: 2_000 });
    const before = archive();
    const imports = t.db.prepare('SELECT count(*) FROM incident_imports').pluck().get();
    for (const [name, cdids, over] of [
      ['b', rising(9_000), { expectedNew: 7_000 }],
      ['c', shuffled(9_000), { expectedNew: 9_000, ascending: false }],
      ['d', [...rising(9_000), 5], { expectedNew: 7_000, repeats: true }],
    ] as const) {
      let reports = 0;
      expect(() =>
        merge(stage(name, [...cdids], NOW + 10), {
          ...over,
          onProgress: (f) => {
            if (f > 0 && ++reports === 3) throw new Error('the disk is full');
          },
        }),
      ).toThrow('the disk is full');
      expect(reports).toBe(3); // it failed mid-merge, not before the rows
      expect(archive()).toEqual(before);
      expect(t.db.prepare('SELECT count(*) FROM incident_imports').pluck().get()).toBe(imports);
    }
    expect(t.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});
