/**
 * Imports into an archive that already holds the rows (issue 11, items 11 and 17): both merge paths
 * (set-wise for distinct cdids, row by row for a file that repeats one) update held rows without
 * failing; a row from the API is never overwritten (DESIGN.md, "Incident identity": only a missing
 * description may be filled); times in the future are refused per row; and the preview says, for
 * the rows already held, what the run will do.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportPreview, ImportResult } from '../../../src-shared/exports';
import { apiRow, openTestEngine, writeIncidents, type TestEngine } from '../export/exportTesting';

let t: TestEngine;
beforeEach(() => (t = openTestEngine()));
afterEach(() => t.close());

const call = <T>(name: string, input: unknown): Promise<T> => t.call<T>(name, input);
type Stored = Record<string, unknown>;
const stored = (cdid: number) => t.db.prepare('SELECT * FROM incidents WHERE cdid = ?').get(cdid) as Stored;
const preview = (name: string, text: string) =>
  call<ImportPreview>('previewImport', { source: { path: t.file(name, text) } });

const HEADER =
  'cdid,type,occurred_local,timezone,occurred_utc,date_raw,address,lat,lon,link,description,first_seen,last_seen,removed';
const iso = (ms: number) => new Date(ms).toISOString();
/** A Blotter CSV line of a stored row, with some fields changed. */
function lineOf(row: Stored, over: Partial<Record<string, string | number | boolean>> = {}): string {
  const v = {
    cdid: row.cdid,
    type: row.type,
    occurred_local: row.occurred_local,
    timezone: row.timezone,
    occurred_utc: iso(row.occurred_utc as number),
    date_raw: row.date_raw,
    address: row.address,
    lat: row.lat,
    lon: row.lon,
    link: row.link,
    description: row.description ?? '',
    first_seen: iso(row.first_seen as number),
    last_seen: iso(row.last_seen as number),
    removed: row.removed_at !== null,
    ...over,
  };
  return HEADER.split(',')
    .map((k) => String(v[k as keyof typeof v]))
    .join(',');
}

const SYNCED = Date.parse('2025-06-01T00:00:00Z');
const LATER = '2025-07-01T00:00:00.000Z';
const EARLIER = '2025-05-01T00:00:00.000Z';

/**
 * The archive: API rows 1–3 (3 already described) and rows 4 and 6 from an earlier import. The
 * file: 1 differs from the API's copy (seen later, even marked removed), 2 brings the description
 * it lacks, 3 is the same, 4 was seen later than the import held it, 5 is new, 6 differs but was
 * seen earlier.
 */
function heldArchive(): Stored[] {
  writeIncidents(
    t.db,
    [1, 2, 3, 4, 6].map((cdid) => apiRow(cdid)),
    SYNCED,
  );
  t.db.exec(`UPDATE incidents SET description = 'from the API' WHERE cdid = 3`);
  t.db.exec(`UPDATE incidents SET source = 'import' WHERE cdid IN (4, 6)`);
  return [1, 2, 3, 4, 6].map(stored);
}

function fileLines(rows: Stored[]): string[] {
  const [one, two, three, four, six] = rows as [Stored, Stored, Stored, Stored, Stored];
  return [
    lineOf(one, { address: 'rewritten by a file', type: 'Homicide', last_seen: LATER, removed: true }),
    lineOf(two, { description: 'from the file' }),
    lineOf(three),
    lineOf(four, { address: 'seen later', last_seen: LATER }),
    lineOf({ ...four, cdid: 5 }, { address: 'new' }),
    lineOf(six, { address: 'seen earlier', last_seen: EARLIER }),
  ];
}

function expectApiRowsKept(before: Stored[]): void {
  const [one, , three] = before as [Stored, Stored, Stored];
  // The API's copy stands, whatever the file said about it.
  expect(stored(1)).toEqual(one);
  expect(stored(3)).toEqual(three);
  expect(stored(2)).toMatchObject({
    ...before[1],
    description: 'from the file',
    description_fetched_at: expect.any(Number),
  });
  expect(stored(4)).toMatchObject({ address: 'seen later', last_seen: Date.parse(LATER), source: 'import' });
  expect(stored(5)).toMatchObject({ address: 'new', source: 'import' });
  expect(stored(6)).toMatchObject({ address: (before[4] as Stored).address, source: 'import' });
}

describe('an import into rows already held', () => {
  it('distinct cdids (the set-wise merge): updates imported rows, fills a description, keeps API rows', async () => {
    const before = heldArchive();
    const pv = await preview('held.csv', [HEADER, ...fileLines(before)].join('\n'));
    expect(pv).toMatchObject({ valid: 6, duplicatesInFile: 0, existing: 5, errorCount: 0 });
    expect(pv.held).toEqual({ replace: 1, describe: 1, keptApi: 1, keptHeld: 1, unchanged: 1 });
    // Before the fix this failed as `internal` (SQLite: ambiguous column name: description).
    const done = await call<ImportResult>('runImport', { importId: pv.importId });
    expect(done).toMatchObject({ inserted: 1, updated: 2, unchanged: 3, skipped: 0 });
    expectApiRowsKept(before);
    expect(stored(1)).toMatchObject({ removed_at: null, source: 'api', type: 'Theft' });
  });

  it('a file that repeats cdids (the row-by-row merge): the same rules, copy by copy', async () => {
    const before = heldArchive();
    const lines = fileLines(before);
    const [one, , , four] = before as [Stored, Stored, Stored, Stored];
    const repeated = [
      lineOf(one, { address: 'an earlier copy', last_seen: '2025-06-15T00:00:00.000Z' }),
      ...lines,
      lineOf(four, { address: 'a stale copy', last_seen: EARLIER }),
    ];
    const pv = await preview('repeats.csv', [HEADER, ...repeated].join('\r\n'));
    expect(pv).toMatchObject({ valid: 8, duplicatesInFile: 2, existing: 5 });
    expect(pv.held).toEqual({ replace: 1, describe: 1, keptApi: 1, keptHeld: 1, unchanged: 1 });
    const done = await call<ImportResult>('runImport', { importId: pv.importId });
    expect(done).toMatchObject({ inserted: 1, updated: 2, unchanged: 3 });
    expectApiRowsKept(before);
  });

  it('the set-wise path also holds on a large file (bulk indexes set aside), API rows untouched', async () => {
    writeIncidents(t.db, [apiRow(1, { address: 'API address' })], SYNCED);
    const apiCopy = stored(1);
    const lines = [lineOf(apiCopy, { address: 'file address', last_seen: LATER, description: 'filled' })];
    for (let k = 0; k < 25_000; k++)
      lines.push(lineOf({ ...apiCopy, cdid: 100 + k }, { address: `new ${k}` }));
    const pv = await preview('bulk.csv', [HEADER, ...lines].join('\n'));
    expect(pv.held).toEqual({ replace: 0, describe: 1, keptApi: 0, keptHeld: 0, unchanged: 0 });
    const done = await call<ImportResult>('runImport', { importId: pv.importId });
    expect(done).toMatchObject({ inserted: 25_000, updated: 1 });
    expect(stored(1)).toMatchObject({
      ...apiCopy,
      description: 'filled',
      description_fetched_at: expect.any(Number),
    });
    expect(
      t.db.prepare(`SELECT rowid FROM incidents_fts WHERE incidents_fts MATCH 'filled'`).pluck().all(),
    ).toEqual([1]);
  });
});

describe('times in the future', () => {
  it('are refused per row beyond a day of clock skew; a row an hour ahead is fine', async () => {
    writeIncidents(t.db, [apiRow(1)], SYNCED);
    const api = stored(1);
    const now = Date.now();
    const lines = [
      lineOf(api, { last_seen: '2099-01-01T00:00:00.000Z' }),
      lineOf({ ...api, cdid: 2 }, { first_seen: iso(now + 3 * 86_400_000), last_seen: iso(now) }),
      lineOf(
        { ...api, cdid: 3 },
        {
          occurred_local: '2099-05-10T13:30',
          occurred_utc: '2099-05-10T18:30:00.000Z',
          date_raw: '05/10/99 01:30 PM',
        },
      ),
      lineOf({ ...api, cdid: 4 }, { first_seen: iso(now), last_seen: iso(now + 3_600_000) }),
    ];
    const pv = await preview('future.csv', [HEADER, ...lines].join('\n'));
    expect(pv).toMatchObject({ rows: 4, valid: 1, errorCount: 3, existing: 0 });
    expect(pv.errors.map((e) => [e.row, e.field])).toEqual([
      [1, 'last_seen'],
      [2, 'first_seen'],
      [3, 'occurred_local'],
    ]);
    expect(pv.errors[0]?.message).toMatch(/last_seen is in the future \(2099-01-01T00:00:00.000Z\)/);
    await call('runImport', { importId: pv.importId });
    expect(stored(1)).toEqual(api); // the synced row keeps its own last_seen
    expect(stored(4)).toMatchObject({ last_seen: now + 3_600_000 });
  });

  it('an API-shaped archive with a date in the future is refused by row too', async () => {
    const crimes = [apiRow(7), apiRow(8, { date: '01/01/99 10:00 AM' })];
    const pv = await preview('future.json', JSON.stringify({ crimes }));
    expect(pv).toMatchObject({ valid: 1, errorCount: 1 });
    expect(pv.errors[0]).toMatchObject({ row: 2, field: 'date_raw' });
  });
});
