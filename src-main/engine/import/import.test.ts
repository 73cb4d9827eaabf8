import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportPreview, ImportResult, StartExportOutput } from '../../../src-shared/exports';
import {
  apiRow,
  exportFinished,
  openTestEngine,
  TRICKY,
  writeIncidents,
  type TestEngine,
} from '../export/exportTesting';
import { CsvRecordReader } from './csvRecords';
import { JsonRecordReader, NdjsonRecordReader } from './jsonRecords';
import { detectFormat } from './detect';
import { normalize, type ImportRow } from './normalize';
import Database from 'better-sqlite3';
import { STAGED_COLUMNS, StageWriter, stagedRowsSql, stageFileOf } from './stage';
import { boxParams, inBoxSql } from '../store/incidents/boxQuery';

let t: TestEngine;
beforeEach(() => (t = openTestEngine()));
afterEach(() => t.close());

const call = <T>(name: string, input: unknown): Promise<T> => t.call<T>(name, input);
const file = (name: string, text: string): string => t.file(name, text);
const preview = (p: string) => call<ImportPreview>('previewImport', { source: { path: p } });
const stored = (cdid: number) =>
  t.db.prepare('SELECT * FROM incidents WHERE cdid = ?').get(cdid) as Record<string, unknown> | undefined;
const total = () => t.db.prepare('SELECT count(*) FROM incidents').pluck().get() as number;

describe('CSV records', () => {
  it('reads RFC 4180: quotes, doubled quotes, commas and line breaks, across any chunk boundary', () => {
    const text = 'a,b,c\r\n1,"x, ""y""","line\r\nbreak"\n2,,plain\r\n"3",ü 北,"end"';
    const whole = new CsvRecordReader();
    const expected = [...whole.push(text), ...whole.end()];
    expect(expected).toEqual([
      ['a', 'b', 'c'],
      ['1', 'x, "y"', 'line\r\nbreak'],
      ['2', '', 'plain'],
      ['3', 'ü 北', 'end'],
    ]);
    for (let cut = 1; cut < text.length; cut++) {
      const r = new CsvRecordReader();
      expect(
        [...r.push(text.slice(0, cut)), ...r.push(text.slice(cut)), ...r.end()],
        `cut at ${cut}`,
      ).toEqual(expected);
    }
  });
});

describe('staged rows', () => {
  it('give back exactly the rows put in, in file order across staging files', () => {
    const rows: ImportRow[] = [
      [
        1,
        'Theft',
        'ü 北 "x"',
        41.5,
        -87.25,
        '',
        '11/03/24 01:30 AM',
        '2024-11-03T01:30',
        'America/Chicago',
        1730615400000,
        'ambiguous',
        '2024-11-03',
        1,
        0,
        null,
        null,
        null,
        0,
      ],
      [
        2 ** 40,
        'T',
        '',
        -90,
        180,
        'https://x.test/2',
        'd',
        'l',
        'UTC',
        -5,
        'nonexistent',
        'day',
        23,
        6,
        'desc ✓'.repeat(5000),
        0,
        1.5e12,
        1,
      ],
    ];
    // Two staging files (two preview threads) taking alternate runs of rows, read back in file order.
    const files = [0, 1].map((k) => stageFileOf(t.dir.path, 'abc123', k));
    const writers = files.map((f) => new StageWriter(f));
    for (let k = 0; k < 5000; k++)
      rows.forEach((r, i) => (writers[Math.floor(k / 7) % 2] as StageWriter).add(1 + k * 2 + i, r));
    for (const w of writers) w.close();
    const db = new Database(':memory:');
    files.forEach((f, k) => db.prepare(`ATTACH ? AS s${k}`).run(f));
    const back = db
      .prepare(stagedRowsSql(['s0', 's1']))
      .raw()
      .all() as unknown[][];
    db.close();
    expect(back.length).toBe(10_000);
    expect(back.map((r) => r[0])).toEqual(Array.from({ length: 10_000 }, (_, i) => i + 1));
    // ImportRow's 18 fields, then a mapped file's kept columns, external id and subtype (none here).
    expect(STAGED_COLUMNS.slice(-3)).toEqual(['attributes', 'external_id', 'subtype']);
    const asRows = back.map((r) => r.slice(1, 19));
    expect(
      back.every(
        (r) => r.length === 1 + STAGED_COLUMNS.length && r[19] === null && r[20] === null && r[21] === null,
      ),
    ).toBe(true);
    expect(asRows.slice(0, 2)).toEqual(rows);
    expect(asRows.at(-1)).toEqual(rows[1]);
  });
});

describe('JSON records', () => {
  it('finds the records array (GeoJSON features, the API answer, a bare array) in any chunking', () => {
    const docs = [
      '{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"a":"}{"}},{"b":[1,{"c":2}]}]}',
      '{"crimes":[{"a":1},{"a":"x\\"]"}],"note":[{"not":"a record"}]}',
      '[{"a":1}, {"a":2}]',
    ];
    for (const doc of docs) {
      const whole = new JsonRecordReader().push(doc);
      expect(whole).toHaveLength(2);
      for (let cut = 1; cut < doc.length; cut++) {
        const r = new JsonRecordReader();
        expect([...r.push(doc.slice(0, cut)), ...r.push(doc.slice(cut))]).toEqual(whole);
      }
    }
    const nd = new NdjsonRecordReader();
    expect([...nd.push('{"a":1}\n\n{"a"'), ...nd.push(':2}'), ...nd.end()]).toEqual(['{"a":1}', '{"a":2}']);
  });

  it('detects the format from the first characters', () => {
    expect(detectFormat('\uFEFFcdid,type,occurred_local,timezone\r\n').format).toBe('blotter-csv');
    expect(detectFormat('type,address,lat,lon,cdid,link,date\n').format).toBe('api-csv');
    expect(detectFormat('{"type":"FeatureCollection","features":[').format).toBe('geojson');
    expect(detectFormat('{"crimes":[{"cdid":1}]}').format).toBe('json');
    expect(detectFormat('{"cdid":1,"type":"Theft"}\n{"cdid":2}').format).toBe('ndjson');
  });
});

describe('normalize', () => {
  const base = {
    cdid: '7',
    type: 'Theft',
    address: '1 Main',
    lat: '41.88',
    lon: '-87.63',
    link: 'https://x.test/7',
  };
  it('reads the API date in the zone of lat/lon, or Blotter’s local time and zone', () => {
    expect(normalize({ ...base, date_raw: '11/03/24 01:30 AM' }, { unneutralise: false })).toEqual([
      7,
      'Theft',
      '1 Main',
      41.88,
      -87.63,
      'https://x.test/7',
      '11/03/24 01:30 AM',
      '2024-11-03T01:30',
      'America/Chicago',
      Date.parse('2024-11-03T06:30:00Z'),
      'ambiguous',
      '2024-11-03',
      1,
      0,
      null,
      null,
      null,
      0,
    ]);
    // The later reading of an ambiguous hour, as a file may carry it, is kept.
    const later = normalize(
      {
        ...base,
        occurred_local: '2024-11-03T01:30',
        timezone: 'America/Chicago',
        occurred_utc: '2024-11-03T07:30:00.000Z',
      },
      { unneutralise: false },
    );
    expect((later as unknown[])[9]).toBe(Date.parse('2024-11-03T07:30:00Z'));
    expect((later as unknown[])[6]).toBe('11/03/24 01:30 AM');
  });
  it('says what is wrong with a row', () => {
    const bad = (over: Record<string, unknown>) =>
      normalize({ ...base, date_raw: '05/10/25 01:30 PM', ...over }, { unneutralise: false });
    expect(bad({ cdid: 'x' })).toMatchObject({ field: 'cdid' });
    expect(bad({ lat: '91' })).toMatchObject({ field: 'lat' });
    expect(bad({ type: '' })).toMatchObject({ field: 'type', message: 'type is missing.' });
    expect(bad({ date_raw: '2025-05-10' })).toMatchObject({ field: 'date_raw' });
    expect(bad({ link: 'javascript:alert(1)' })).toMatchObject({ field: 'link' });
    expect(bad({ occurred_local: '2025-05-10T13:30', timezone: 'Mars/Olympus' })).toMatchObject({
      field: 'timezone',
    });
    expect(
      bad({
        occurred_local: '2025-05-10T13:30',
        timezone: 'America/Chicago',
        occurred_utc: '2025-05-10T13:30:00Z',
      }),
    ).toMatchObject({
      field: 'occurred_utc',
    });
    expect(bad({ removed: 'maybe' })).toMatchObject({ field: 'removed' });
  });
  it('undoes the export’s formula neutralising for Blotter CSV only', () => {
    const row = (address: string, unneutralise: boolean) =>
      (normalize({ ...base, address, date_raw: '05/10/25 01:30 PM' }, { unneutralise }) as unknown[])[2];
    expect(row("'=SUM(A1)", true)).toBe('=SUM(A1)');
    expect(row("'=SUM(A1)", false)).toBe("'=SUM(A1)");
    expect(row("'plain", true)).toBe("'plain");
  });
});

describe('previewImport and runImport', () => {
  it('round-trips a Blotter CSV export into another archive, cells and all', async () => {
    writeIncidents(t.db, TRICKY);
    t.db.prepare('UPDATE incidents SET description = ? WHERE cdid = 2').run('said "no",\nthen =left');
    const started = await call<StartExportOutput>('startExport', {
      format: 'csv',
      filters: { preset: 'all', includeRemoved: true },
      bom: true,
    });
    const done = await t.waitFor(exportFinished(started.jobId));
    const csv = readFileSync(done.file?.path as string, 'utf8');
    const before = t.db.prepare('SELECT * FROM incidents ORDER BY cdid').all();

    const other = openTestEngine();
    try {
      const p = file('copy.csv', csv);
      const pv = (await other.engine.dispatch('previewImport', { source: { path: p } })) as {
        ok: true;
        value: ImportPreview;
      };
      expect(pv.value).toMatchObject({
        format: 'blotter-csv',
        rows: TRICKY.length,
        valid: TRICKY.length,
        errorCount: 0,
        existing: 0,
      });
      const run = (await other.engine.dispatch('runImport', { importId: pv.value.importId })) as {
        ok: true;
        value: ImportResult;
      };
      expect(run.value).toMatchObject({ inserted: TRICKY.length, updated: 0, skipped: 0 });
      const after = other.db.prepare('SELECT * FROM incidents ORDER BY cdid').all() as Record<
        string,
        unknown
      >[];
      const strip = (r: Record<string, unknown>) => ({
        ...r,
        source: undefined,
        description_fetched_at: undefined,
      });
      expect(after.map(strip)).toEqual((before as Record<string, unknown>[]).map(strip));
      expect(after.every((r) => r.source === 'import')).toBe(true);
      expect(
        other.db
          .prepare("SELECT rowid FROM incidents_fts WHERE incidents_fts MATCH 'home OR tabbed OR stop'")
          .all(),
      ).toHaveLength(2);
      expect(
        other.db
          .prepare('SELECT count(*) FROM incidents INDEXED BY incidents_by_lon_cell WHERE lat > -90')
          .pluck()
          .get(),
      ).toBe(TRICKY.length);
      expect(other.events.some((e) => e.type === 'incidentsChanged')).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('imports API-shaped JSON, GeoJSON and NDJSON archives', async () => {
    const crimes = [apiRow(11), apiRow(12, { lat: 40.7128, lon: -74.006, date: '01/02/24 11:00 PM' })];
    await call('runImport', {
      importId: (await preview(file('a.json', JSON.stringify({ crimes })))).importId,
    });
    expect(stored(12)).toMatchObject({
      timezone: 'America/New_York',
      occurred_local: '2024-01-02T23:00',
      local_weekday: 2,
      source: 'import',
    });
    const fc = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [-87.7, 41.9] },
          properties: { ...apiRow(13), lat: 0, lon: 0 },
        },
      ],
    };
    const g = await preview(file('b.geojson', JSON.stringify(fc)));
    expect(g.format).toBe('geojson');
    await call('runImport', { importId: g.importId });
    expect(stored(13)).toMatchObject({ lat: 41.9, lon: -87.7 });
    const nd = await preview(
      file('c.ndjson', `${JSON.stringify(apiRow(14))}\n${JSON.stringify(apiRow(15))}\n`),
    );
    expect(nd).toMatchObject({ format: 'ndjson', valid: 2 });
  });

  it('lists per-row errors; skip imports the valid rows, abort imports nothing', async () => {
    const csv =
      'cdid,type,address,lat,lon,link,date\n21,Theft,1 A St,41.9,-87.6,,05/10/25 01:30 PM\n22,Theft,2 A St,999,-87.6,,05/10/25 01:30 PM\n23,Theft,3 A St,41.9\n24,Arson,4 A St,41.9,-87.6,,yesterday\n';
    const p = file('bad.csv', csv);
    const pv = await preview(p);
    expect(pv).toMatchObject({ format: 'api-csv', rows: 4, valid: 1, errorCount: 3 });
    expect(pv.errors.map((e) => [e.row, e.field])).toEqual([
      [2, 'lat'],
      [3, null],
      [4, 'date_raw'],
    ]);
    await expect(call('runImport', { importId: pv.importId, onBadRows: 'abort' })).rejects.toMatchObject({
      code: 'bad_input',
    });
    expect(total()).toBe(0);
    const result = await call<ImportResult>('runImport', { importId: pv.importId, onBadRows: 'skip' });
    expect(result).toMatchObject({ inserted: 1, skipped: 3 });
    await expect(call('runImport', { importId: pv.importId })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('dedupes by cdid: the later last_seen wins, the archive keeps its own copy otherwise', async () => {
    writeIncidents(t.db, [apiRow(31), apiRow(32), apiRow(33)], Date.parse('2025-06-01T00:00:00Z'));
    t.db.exec(`UPDATE incidents SET source = 'import' WHERE cdid = 31`); // an earlier import's row
    const header =
      'cdid,type,occurred_local,timezone,occurred_utc,date_raw,address,lat,lon,link,description,first_seen,last_seen,removed';
    const line = (cdid: number, address: string, lastSeen: string, description = '') =>
      `${cdid},Theft,2025-05-10T13:30,America/Chicago,2025-05-10T18:30:00.000Z,05/10/25 01:30 PM,${address},41.88,-87.63,,${description},2025-05-11T00:00:00.000Z,${lastSeen},false`;
    const csv = [
      header,
      line(31, 'newer', '2025-07-01T00:00:00.000Z'),
      line(32, 'older', '2025-05-01T00:00:00.000Z', 'from the file'),
      line(34, 'first copy', '2025-05-01T00:00:00.000Z'),
      line(34, 'second copy', '2025-05-02T00:00:00.000Z'),
      line(34, 'stale copy', '2025-04-01T00:00:00.000Z'),
    ].join('\r\n');
    const pv = await preview(file('dupes.csv', csv));
    expect(pv).toMatchObject({
      valid: 5,
      duplicatesInFile: 2,
      existing: 2,
      held: { replace: 1, describe: 1, keptApi: 0, keptHeld: 0, unchanged: 0 },
    });
    const result = await call<ImportResult>('runImport', { importId: pv.importId });
    expect(result).toMatchObject({ inserted: 1, updated: 2, unchanged: 0 });
    expect(stored(31)).toMatchObject({
      address: 'newer',
      source: 'import',
      first_seen: Date.parse('2025-05-11T00:00:00Z'),
    });
    expect(stored(32)).toMatchObject({
      address: '32 Block of N Synthetic Oak St',
      description: 'from the file',
      source: 'api',
    });
    expect(stored(33)).toMatchObject({ source: 'api' });
    expect(stored(34)).toMatchObject({ address: 'second copy' });
  });

  it('leaves nothing half-written when the merge fails', async () => {
    writeIncidents(t.db, [apiRow(41)]);
    const rows = Array.from({ length: 30_000 }, (_, k) => apiRow(50_000 + k));
    const pv = await preview(file('many.json', JSON.stringify(rows)));
    // A row the store refuses at the very end of the merge, after the bulk insert — a trigger in
    // the file, so the helper thread's connection that merges a file this large meets it too.
    t.db.exec(
      `CREATE TRIGGER fail_import AFTER INSERT ON incidents WHEN new.cdid = 79999 BEGIN SELECT RAISE(ABORT, 'boom'); END`,
    );
    await expect(call('runImport', { importId: pv.importId })).rejects.toThrow(/boom|went wrong/);
    t.db.exec('DROP TRIGGER main.fail_import');
    expect(total()).toBe(1);
    expect(
      t.db
        .prepare('SELECT count(*) FROM incidents INDEXED BY incidents_by_lon_cell WHERE lat > -90')
        .pluck()
        .get(),
    ).toBe(1);
    expect(
      t.db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name = 'incidents_ai'")
        .pluck()
        .get(),
    ).toBe('incidents_ai');
  });

  it('bulk-imports with indexes (the spatial one too), FTS and the query engine all consistent afterwards', async () => {
    writeIncidents(t.db, [apiRow(41)]);
    await call('countIncidents', { filters: { preset: 'all', includeRemoved: true } }); // the query engine's triggers
    const objects = () =>
      t.db
        .prepare(
          `SELECT type || ' ' || name FROM sqlite_master WHERE tbl_name = 'incidents' AND type IN ('index', 'trigger')
            UNION ALL SELECT 'temp ' || name FROM sqlite_temp_master WHERE type = 'trigger' ORDER BY 1`,
        )
        .pluck()
        .all() as string[];
    const before = objects();
    expect(before.filter((n) => n.startsWith('temp blotter_query_changes_')).length).toBe(3);
    expect(before.filter((n) => n.startsWith('index ')).length).toBe(2);
    const rows = Array.from({ length: 30_000 }, (_, k) => apiRow(50_000 + k));
    const pv = await preview(file('many.json', JSON.stringify(rows)));
    const done = await call<ImportResult>('runImport', { importId: pv.importId, onBadRows: 'abort' });
    expect(done.inserted).toBe(30_000);
    expect(objects()).toEqual(before);
    expect(t.db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(
      t.db
        .prepare('SELECT count(*) FROM incidents INDEXED BY incidents_by_lon_cell WHERE lat > -90')
        .pluck()
        .get(),
    ).toBe(30_001);
    t.db.exec(`INSERT INTO incidents_fts (incidents_fts) VALUES ('integrity-check')`);
    // The rebuild's automatic merging is back on afterwards.
    expect(t.db.prepare(`SELECT v FROM incidents_fts_config WHERE k = 'automerge'`).pluck().get()).toBe(4);
    expect(
      await call<{ total: number }>('countIncidents', { filters: { preset: 'all', includeRemoved: true } }),
    ).toMatchObject({ total: 30_001 });
    // Writes after the import are still seen by the query engine's change log.
    writeIncidents(t.db, [apiRow(42)]);
    expect(
      await call<{ total: number }>('countIncidents', { filters: { preset: 'all', includeRemoved: true } }),
    ).toMatchObject({ total: 30_002 });
  });

  it('bulk-imports into an empty archive with the spatial index built from a sort', async () => {
    const rows = Array.from({ length: 25_000 }, (_, k) =>
      apiRow(70_000 + k, { lat: 41.6 + (k % 500) / 1000, lon: -87.9 + (k % 311) / 1000 }),
    );
    const pv = await preview(file('empty.json', JSON.stringify(rows)));
    const done = await call<ImportResult>('runImport', { importId: pv.importId, onBadRows: 'abort' });
    expect(done.inserted).toBe(25_000);
    expect(await call('getArchiveSummary', {})).toMatchObject({ total: 25_000 });
    expect(t.db.pragma('integrity_check', { simple: true })).toBe('ok');
    const inBox = t.db
      .prepare(`SELECT count(*) FROM incidents i WHERE ${inBoxSql('i')}`)
      .pluck()
      .get(boxParams({ minLat: 41.6105, maxLat: 41.6495, minLon: -87.8995, maxLon: -87.8505 }));
    const inside = (r: { lat: number; lon: number }) =>
      r.lat >= 41.6105 && r.lat <= 41.6495 && r.lon >= -87.8995 && r.lon <= -87.8505;
    expect(inBox).toBe(rows.filter(inside).length);
    expect(inBox).toBeGreaterThan(100);
  });

  it('answers the views that ask while the query engine reads the import, and those that ask after', async () => {
    expect(await call('getArchiveSummary', {})).toMatchObject({ total: 0 });
    const rows = Array.from({ length: 25_000 }, (_, k) => apiRow(90_000 + k));
    const pv = await preview(file('views.json', JSON.stringify(rows)));
    const asked: Promise<unknown>[] = [];
    const changed = t
      .waitFor((e) => e.type === 'incidentsChanged')
      .then(() => {
        asked.push(call('getArchiveSummary', {})); // as the views do on the event
      });
    await call('runImport', { importId: pv.importId, onBadRows: 'abort' });
    await changed;
    asked.push(call('getArchiveSummary', {})); // as the import panel's own refresh does
    for (const summary of await Promise.all(asked)) expect(summary).toMatchObject({ total: 25_000 });
  });

  it('deletes uploads a closed page left behind a day ago, and keeps recent ones', async () => {
    const dir = path.join(t.dir.path, 'imports');
    mkdirSync(dir, { recursive: true });
    const old = path.join(dir, 'abandoned.upload');
    const recent = path.join(dir, 'recent.upload');
    writeFileSync(old, 'cdid\n');
    writeFileSync(recent, 'cdid\n');
    const twoDaysAgo = new Date(Date.now() - 48 * 3_600_000);
    utimesSync(old, twoDaysAgo, twoDaysAgo);
    await preview(
      file('any.csv', 'cdid,type,address,lat,lon,date\n1,Theft,x,41.8,-87.6,05/10/25 01:30 PM\n'),
    );
    expect(existsSync(old)).toBe(false);
    expect(existsSync(recent)).toBe(true);
  });

  it('refuses a file that is not there and a source the page invented', async () => {
    await expect(preview(path.join(t.dir.path, 'missing.csv'))).rejects.toMatchObject({ code: 'not_found' });
    await expect(call('previewImport', { source: { uploadId: '../../etc/passwd' } })).rejects.toMatchObject({
      code: 'bad_input',
    });
    await expect(call('previewImport', {})).rejects.toMatchObject({ code: 'bad_input' });
  });
});

describe('the parallel preview of a large CSV file', () => {
  /** A Blotter CSV with quoted line breaks, CRLF, blank lines, a BOM, bad rows and a repeated cdid. */
  function trickyCsv(rows: number): string {
    const header = 'cdid,type,occurred_local,timezone,address,lat,lon,description,last_seen';
    const lines = [`\uFEFF${header}`];
    for (let k = 1; k <= rows; k++) {
      const cdid = 1000 + k;
      const when = `2025-03-${String(1 + (k % 28)).padStart(2, '0')}T${String(k % 24).padStart(2, '0')}:15`;
      const seen = `2025-04-01T00:00:${String(k % 60).padStart(2, '0')}.000Z`;
      if (k % 97 === 0) lines.push(`${cdid},Theft,${when},America/Chicago,too few fields`);
      else if (k % 89 === 0) lines.push(`${cdid},Theft,${when},Mars/Olympus,1 Main St,41.8,-87.6,,${seen}`);
      else if (k % 13 === 0)
        lines.push(
          `${cdid},Theft,${when},America/Chicago,"${k} N STATE ST, ""rear""\r\nunit 2",41.8,-87.6,"said ""no"",\nthen left",${seen}`,
        );
      else lines.push(`${cdid},Assault,${when},America/New_York,${k} BROADWAY,40.7,-74.0,,${seen}`);
      if (k % 50 === 0) lines.push('');
    }
    lines.push(`1001,Theft,2025-03-02T01:15,America/Chicago,repeat,41.8,-87.6,,2025-05-01T00:00:00.000Z`);
    return (
      lines.join('\r\n') + '\n1002,Arrest,2025-03-03T02:15,America/Chicago,last line unended,41.8,-87.6,,'
    );
  }
  const strip = (p: ImportPreview) => ({ ...p, importId: undefined });

  it('cuts read pieces without quotes where they lie, reading as the one-thread preview', async () => {
    // No quotes anywhere: each read piece is cut in place (the record it begins with finishes the
    // text before it). Odd piece sizes end pieces inside records, between \r and \n, inside a
    // two-byte character, on blank lines; bad rows and a repeated cdid are counted by their rows.
    const lines = ['cdid,type,occurred_local,timezone,address,lat,lon,description,last_seen'];
    for (let k = 1; k <= 4000; k++) {
      const when = `2025-03-${String(1 + (k % 28)).padStart(2, '0')}T${String(k % 24).padStart(2, '0')}:15`;
      if (k % 97 === 0) lines.push(`${1000 + k},Theft,${when},America/Chicago,too few fields`);
      else
        lines.push(
          `${1000 + k},Assault,${when},America/New_York,${k} CAFÉ ÜBER ST,40.7,-74.0,${'x'.repeat(k % 40)},`,
        );
      if (k % 50 === 0) lines.push('');
    }
    lines.push('1001,Theft,2025-03-02T01:15,America/Chicago,repeat,41.8,-87.6,,2025-05-01T00:00:00.000Z');
    const csv = file(
      'plain.csv',
      `${lines.join('\r\n')}\n1002,Arrest,2025-03-03T02:15,America/Chicago,unended,41.8,-87.6,,`,
    );
    const { Imports } = await import('./imports');
    const emit = () => undefined;
    const one = openTestEngine();
    try {
      const a = await new Imports({
        db: one.db,
        dataDir: one.dir.path,
        emit,
        query: one.engine.context.services.query,
      }).preview({
        path: csv,
      });
      expect(a).toMatchObject({ rows: 4002, duplicatesInFile: 2 });
      for (const readBytes of [997, 1024, 4099]) {
        const other = openTestEngine();
        try {
          const b = await new Imports(
            { db: other.db, dataDir: other.dir.path, emit, query: other.engine.context.services.query },
            Date.now,
            { parallelMinBytes: 0, threads: 2, chunkChars: 700, readBytes },
          ).preview({ path: csv });
          expect(strip(b)).toEqual(strip(a));
          // The threads read it (no fall-back to the engine thread), in whichever log the engine keeps.
          const logs = [t, one, other]
            .map((e) => path.join(e.dir.path, 'logs', 'blotter.log'))
            .filter((f) => existsSync(f));
          expect(logs.length).toBeGreaterThan(0);
          for (const f of logs) expect(readFileSync(f, 'utf8')).not.toMatch(/check threads failed/);
        } finally {
          other.close();
        }
      }
    } finally {
      one.close();
    }
  });

  it('reads exactly as the one-thread preview, and the run writes the same archive', async () => {
    const csv = file('big.csv', trickyCsv(3000));
    const { Imports } = await import('./imports');
    const emit = () => undefined;
    const other = openTestEngine();
    try {
      const oneThread = new Imports({
        db: t.db,
        dataDir: t.dir.path,
        emit,
        query: t.engine.context.services.query,
      });
      const parallel = new Imports(
        { db: other.db, dataDir: other.dir.path, emit, query: other.engine.context.services.query },
        Date.now,
        {
          parallelMinBytes: 0,
          threads: 3,
          chunkChars: 700,
        },
      );
      const a = await oneThread.preview({ path: csv });
      const b = await parallel.preview({ path: csv });
      expect(strip(b)).toEqual(strip(a));
      expect(a).toMatchObject({ rows: 3002, duplicatesInFile: 2 });
      expect(a.errors.map((e) => e.row)).toEqual(
        [
          ...Array.from({ length: 30 }, (_, i) => 97 * (i + 1)),
          ...Array.from({ length: 33 }, (_, i) => 89 * (i + 1)),
        ]
          .filter((r) => r <= 3000)
          .sort((x, y) => x - y),
      );
      const stageFiles = () =>
        readdirSync(path.join(other.dir.path, 'imports')).filter((f) => f.includes('.stage-'));
      expect(stageFiles()).toHaveLength(3);
      const ra = await oneThread.run(a.importId, 'skip');
      const rb = await parallel.run(b.importId, 'skip');
      expect({ ...rb, ms: 0 }).toEqual({ ...ra, ms: 0 });
      expect(stageFiles()).toHaveLength(0);
      // A preview discarded, or replaced by another, leaves no staging files either.
      const first = await parallel.preview({ path: csv });
      const second = await parallel.preview({ path: csv });
      expect(stageFiles()).toHaveLength(3);
      expect(stageFiles().every((f) => f.startsWith(second.importId))).toBe(true);
      expect(await parallel.discard(first.importId)).toBe(false); // already replaced
      expect(await parallel.discard(second.importId)).toBe(true);
      expect(stageFiles()).toHaveLength(0);
      const all = (db: typeof t.db) =>
        db
          .prepare('SELECT * FROM incidents ORDER BY cdid')
          .all()
          .map((r) => ({
            ...(r as object),
            first_seen: 0,
            last_seen:
              (r as { last_seen: number }).last_seen > 1.7e12
                ? 'now'
                : (r as { last_seen: number }).last_seen,
          }));
      expect(all(other.db)).toEqual(all(t.db));
      expect(stored(1001)).toMatchObject({ address: 'repeat' }); // the later last_seen won
      expect(stored(1013)).toMatchObject({ address: '13 N STATE ST, "rear"\r\nunit 2' });
    } finally {
      await other.close();
    }
  });

  it('reads the file on the engine thread when the check threads fail', async () => {
    const csv = file('big.csv', trickyCsv(500));
    const { Imports } = await import('./imports');
    const emit = () => undefined;
    const oneThread = await new Imports({
      db: t.db,
      dataDir: t.dir.path,
      emit,
      query: t.engine.context.services.query,
    }).preview({ path: csv });
    const failing = new Imports(
      { db: t.db, dataDir: t.dir.path, emit, query: t.engine.context.services.query },
      Date.now,
      {
        parallelMinBytes: 0,
        threads: 2,
        chunkChars: 700,
        threadLimits: { maxOldGenerationSizeMb: 1, maxYoungGenerationSizeMb: 1 }, // no thread starts in that
      },
    );
    const fallback = await failing.preview({ path: csv });
    expect(strip(fallback)).toEqual(strip(oneThread));
    expect(readFileSync(path.join(t.dir.path, 'logs', 'blotter.log'), 'utf8')).toMatch(
      /the check threads failed; reading the file on the engine thread/,
    );
    const done = await failing.run(fallback.importId, 'skip');
    expect(done.inserted).toBe(oneThread.valid - oneThread.duplicatesInFile);
  });
});
