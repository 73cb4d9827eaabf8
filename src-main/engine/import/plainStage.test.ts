/**
 * A Blotter export's rows carry no id in another system and no kept columns: its staging files say
 * so (a `plain` table), and the run writes every row's provenance from the archive's cdids alone.
 * A file with any such value is not plain, and its rows' values reach the archive as before.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportPreview } from '../../../src-shared/exports';
import type { IncidentDetail } from '../../../src-shared/incidentQueries';
import { openTestEngine, type TestEngine } from '../export/exportTesting';
import { mergeRows } from './merge';
import type { ImportRow } from './normalize';
import { StageWriter } from './stage';

let t: TestEngine;
beforeEach(() => (t = openTestEngine()));
afterEach(() => t.close());

const NOW = 1_760_000_000_000;
const rowOf = (cdid: number, externalId: string | null = null, attributes: string | null = null): ImportRow =>
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
    null,
    null,
    null,
    0,
    attributes,
    externalId,
  ] as unknown as ImportRow;

/** Stages `rows` (cdid → row) in two files, alternate chunks of 50 as two check threads would. */
function stage(n: number, row: (cdid: number) => ImportRow): string[] {
  const files = [0, 1].map((k) => path.join(t.dir.path, `p.stage-${k}.sqlite`));
  const writers = files.map((f) => new StageWriter(f));
  for (let k = 0; k < n; k++) writers[Math.floor(k / 50) % 2]?.add(k + 1, row(k + 1));
  for (const w of writers) w.close();
  return files;
}

const isPlain = (file: string): boolean => {
  const db = new Database(file, { readonly: true });
  const found = db.prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'plain'`).pluck().get() === 1;
  db.close();
  return found;
};

const merge = (files: string[], n: number) =>
  mergeRows(t.db, {
    stageFiles: files,
    expectedNew: n,
    repeats: false,
    origin: { fileName: 'export.csv', mappingName: null, mappingHash: null },
    now: NOW,
  });

describe('plain staged rows', () => {
  it('every row of a plain import into an empty archive keeps its provenance (bulk indexing too)', async () => {
    const n = 25_000;
    const files = stage(n, (cdid) => rowOf(cdid));
    expect(files.map(isPlain)).toEqual([true, true]);
    expect(merge(files, n)).toEqual({ inserted: n, updated: 0 });
    const kept = t.db.prepare(
      'SELECT cdid, run_id, external_id, attributes FROM incident_imports ORDER BY cdid',
    );
    const rows = kept.raw().all() as unknown[][];
    expect(rows.length).toBe(n);
    expect(rows.map((r) => r[0])).toEqual(Array.from({ length: n }, (_, k) => k + 1));
    expect(new Set(rows.map((r) => `${String(r[1])} ${String(r[2])} ${String(r[3])}`)).size).toBe(1);
    const d = await t.call<IncidentDetail>('getIncident', { cdid: 777 });
    expect(d.importedFrom).toMatchObject({ fileName: 'export.csv', externalId: null, attributes: {} });
    // Searched at once: the text index was rebuilt whole inside the import.
    const found = t.db.prepare(`SELECT rowid FROM incidents_fts WHERE incidents_fts MATCH '"777"'`).pluck();
    expect(found.all()).toEqual([777]);
  });

  it('a file with one external id or kept column is not plain: those values are kept', () => {
    const n = 200;
    const files = stage(n, (cdid) => (cdid === 120 ? rowOf(cdid, 'RMS-120', '{"Beat":"4"}') : rowOf(cdid)));
    expect(files.map(isPlain)).toEqual([false, true]); // row 120 went to the first file
    expect(merge(files, n)).toEqual({ inserted: n, updated: 0 });
    const one = t.db.prepare('SELECT external_id, attributes FROM incident_imports WHERE cdid = ?').raw();
    expect(one.get(120)).toEqual(['RMS-120', '{"Beat":"4"}']);
    expect(one.get(7)).toEqual([null, null]);
    expect(t.db.prepare('SELECT count(*) FROM incident_imports').pluck().get()).toBe(n);
  });

  it('a search right after a large import (indexes rebuilt whole) finds the new rows', async () => {
    const n = 25_000;
    const lines = ['cdid,type,address,lat,lon,occurred_local,timezone,description'];
    for (let k = 1; k <= n; k++)
      lines.push(
        `${k},Theft,${k} BLOCK OF ${k % 7 === 0 ? 'ZEPHYR' : 'MAIN'} ST,41.9,-87.63,2025-05-10T13:30,America/Chicago,bike ${k}`,
      );
    const pv = await t.call<ImportPreview>('previewImport', {
      source: { path: t.file('big.csv', lines.join('\n')) },
    });
    await t.call('runImport', { importId: pv.importId, onBadRows: 'abort' });
    const count = (text: string) =>
      t.call<{ total: number }>('countIncidents', { filters: { preset: 'all', includeRemoved: true, text } });
    expect((await count('zephyr')).total).toBe(Math.floor(n / 7));
    expect((await count('"block of main"')).total).toBe(n - Math.floor(n / 7));
    expect((await count('bike 24999')).total).toBe(1);
    const kept = t.db.prepare('SELECT count(*) FROM incident_imports').pluck().get();
    expect(kept).toBe(n);
  });
});
