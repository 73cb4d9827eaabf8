import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { ImportPreview, Manifest } from '../../src-shared/exports';
import { ExportResult } from './ExportResult';
import { bytesText, importOutcome, progressText, type ExportEvent } from './exportText';
import { ImportPreviewView } from './ImportPreviewView';
import { importChanges } from './importChanges';
import { uploadFile } from './upload';

const event = (over: Partial<ExportEvent>): ExportEvent => ({
  type: 'exportProgress',
  jobId: 'j',
  format: 'csv',
  state: 'running',
  done: 1200,
  total: 995018,
  ...over,
});

const file = {
  name: 'blotter-incidents.csv',
  path: '/data/exports/blotter-incidents.csv',
  bytes: 265_000_000,
  manifestName: 'blotter-incidents.manifest.json',
};

const manifest = {
  kind: 'blotter-export',
  manifestVersion: 1,
  createdAt: '2025-05-10T14:30:00.000Z',
  app: { name: 'Blotter', version: '0.1.0' },
  format: 'csv',
  file: { name: file.name, bytes: file.bytes },
  filters: { preset: '30d' },
  filterWords: ['Types: all', 'Dates: 2025-04-11 to 2025-05-10 (last 30 days)'],
  range: { from: '2025-04-11', to: '2025-05-10' },
  counts: { total: 20, written: 20, byType: { Theft: 15, Arson: 5 } },
  provenance: {
    areas: [
      {
        id: 1,
        name: 'Downtown',
        lastSyncedAt: Date.parse('2025-05-10T14:00:00Z'),
        backfilledAt: null,
        gaps: [{ from: '2025-04-20', to: '2025-04-21' }],
        missingDays: 2,
        provisionalDays: 2,
      },
    ],
    coverageBasis: 'ledger',
    range: { from: '2025-04-11', to: '2025-05-10' },
    plan: { id: 'developer', label: 'Developer', windowDays: 90 },
    notes: [],
  },
} satisfies Manifest;

describe('export words', () => {
  it('says progress, sizes and outcomes plainly', () => {
    expect(progressText(event({}))).toBe('Writing 1,200 of 995,018 incidents…');
    expect(progressText(event({ state: 'printing', format: 'pdf' }))).toBe(
      'Drawing and printing the report…',
    );
    expect(progressText(event({ state: 'cancelled' }))).toBe('Export cancelled; no file was left behind.');
    expect(progressText(event({ state: 'failed', error: { code: 'internal', message: 'Disk full.' } }))).toBe(
      'Disk full.',
    );
    expect(bytesText(265_000_000)).toBe('252.7 MB');
    expect(importOutcome({ inserted: 10, updated: 2, unchanged: 1, skipped: 3, ms: 1500 })).toBe(
      'Imported: 10 new, 2 updated, 1 already held, 3 bad rows skipped (1.5 s).',
    );
  });
});

describe('the export result', () => {
  it('offers the file and its manifest for download in the web host', () => {
    const html = renderToStaticMarkup(<ExportResult file={file} manifest={manifest} web />);
    expect(html).toContain('href="/api/download/blotter-incidents.csv" download="blotter-incidents.csv"');
    expect(html).toContain('href="/api/download/blotter-incidents.manifest.json"');
    expect(html).toContain('20 of 20 matching incidents');
    expect(html).toContain('Theft 15, Arson 5');
    expect(html).toContain('Downtown (last synced 2025-05-10 14:00 UTC; 2 days missing)');
  });

  it('says where Electron saved it', () => {
    const html = renderToStaticMarkup(<ExportResult file={file} web={false} />);
    expect(html).toContain('Saved to <code>/data/exports/blotter-incidents.csv</code>');
    expect(html).not.toContain('/api/download');
  });
});

describe('the import preview', () => {
  it('shows counts, the first rows and each row problem', () => {
    const preview: ImportPreview = {
      importId: 'i',
      fileName: 'archive.csv',
      format: 'api-csv',
      bytes: 2048,
      rows: 3,
      valid: 2,
      duplicatesInFile: 0,
      existing: 1,
      held: { replace: 0, describe: 0, keptApi: 1, keptHeld: 0, unchanged: 0 },
      errorCount: 1,
      errors: [{ row: 3, field: 'lat', message: 'lat must be a number from -90 to 90.' }],
      failures: [{ field: 'lat', rows: 1, message: 'lat must be a number from -90 to 90.' }],
      repeats: { ids: 0, differing: 0, listed: [] },
      sample: [
        {
          cdid: 7,
          type: 'Theft',
          occurredLocal: '2025-05-10T13:30',
          timezone: 'America/Chicago',
          address: '1 Main',
          lat: 1,
          lon: 2,
        },
      ],
    };
    const html = renderToStaticMarkup(<ImportPreviewView preview={preview} />);
    expect(html).toContain('read as CSV with the API’s fields');
    expect(html).toContain('<td>2025-05-10 13:30</td>');
    expect(html).toContain('<td>3</td><td>lat</td><td>lat must be a number from -90 to 90.</td>');
    expect(html).toContain(
      '1 new; of the 1 already in the archive: 1 differs from the API’s copy and is kept as the API has it.',
    );
  });

  it('says in the preview, before Import is offered, that no row can be imported and which column failed', () => {
    const preview: ImportPreview = {
      importId: 'i',
      fileName: 'sfpd.csv',
      format: 'api-csv',
      mapping: 'SFPD',
      bytes: 4096,
      rows: 11884,
      valid: 0,
      duplicatesInFile: 0,
      existing: 0,
      held: { replace: 0, describe: 0, keptApi: 0, keptHeld: 0, unchanged: 0 },
      errorCount: 11884,
      errors: [{ row: 1, field: 'Incident Datetime', message: 'Incident Datetime: expected a date.' }],
      failures: [{ field: 'Incident Datetime', rows: 11884, message: 'Incident Datetime: expected a date.' }],
      repeats: { ids: 0, differing: 0, listed: [] },
      unusable:
        'No row of sfpd.csv can be imported: Incident Datetime failed on 11,884 rows (expected a date).',
      sample: [],
    };
    const html = renderToStaticMarkup(<ImportPreviewView preview={preview} />);
    expect(html).toContain(
      '<p role="alert" class="message message-error" data-testid="import-unusable">No row of sfpd.csv can be imported: ' +
        'Incident Datetime failed on 11,884 rows (expected a date). Nothing can be imported from this file',
    );
    expect(html).toContain('11,884 (Incident Datetime: 11,884)');
  });

  it('names the ids on more than one row and what happens to each', () => {
    const preview: ImportPreview = {
      importId: 'i',
      fileName: 'homicides.csv',
      format: 'api-csv',
      mapping: 'CPD',
      bytes: 512,
      rows: 4,
      valid: 4,
      duplicatesInFile: 2,
      existing: 0,
      held: { replace: 0, describe: 0, keptApi: 0, keptHeld: 0, unchanged: 0 },
      errorCount: 0,
      errors: [],
      failures: [],
      repeats: {
        ids: 2,
        differing: 1,
        listed: [
          { id: 'JA100', rows: [2, 3], count: 2, kept: 2, same: false },
          { id: 'JA200', rows: [1, 4], count: 2, kept: 1, same: true },
        ],
      },
      sample: [],
    };
    const html = renderToStaticMarkup(<ImportPreviewView preview={preview} />);
    expect(html).toContain(
      '2 (2 ids are on more than one row; 1 of those rows differ from the copy kept and would not be imported)',
    );
    expect(html).toContain(
      '<td>JA100</td><td>2, 3</td><td>They differ: only row 2 is imported; the others add at most a description it lacks.</td>',
    );
    expect(html).toContain('<td>JA200</td><td>1, 4</td><td>The same record: imported once.</td>');
  });

  it('says what the import would change in rows already held', () => {
    const p = {
      valid: 68,
      duplicatesInFile: 8,
      existing: 48,
      held: { replace: 0, describe: 3, keptApi: 5, keptHeld: 0, unchanged: 40 },
    } as ImportPreview;
    expect(importChanges(p)).toBe(
      '12 new; of the 48 already in the archive: 3 would gain the description they lack, 40 unchanged, ' +
        '5 differ from the API’s copy and are kept as the API has them.',
    );
  });
});

describe('uploads', () => {
  it('posts the raw file with its name and returns the upload id', async () => {
    const fetchFn = vi.fn(
      async () =>
        new Response(
          JSON.stringify({ ok: true, value: { uploadId: 'u'.repeat(20), name: 'a b.csv', bytes: 3 } }),
        ),
    );
    const uploaded = await uploadFile(new File(['abc'], 'a b.csv'), fetchFn as unknown as typeof fetch);
    expect(uploaded.uploadId).toBe('u'.repeat(20));
    const [url, init] = fetchFn.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/upload');
    expect(init.headers).toMatchObject({
      'Content-Type': 'application/octet-stream',
      'X-Blotter-File-Name': 'a%20b.csv',
    });
  });

  it('passes on the host’s refusal', async () => {
    const fetchFn = async () =>
      new Response(
        JSON.stringify({
          ok: false,
          error: { code: 'bad_input', message: 'The file is larger than 1024 MB.' },
        }),
        { status: 413 },
      );
    await expect(uploadFile(new File(['x'], 'x.csv'), fetchFn as typeof fetch)).rejects.toThrow(
      'larger than 1024 MB',
    );
  });
});

describe('the unplaced rows of an import (issue 28)', () => {
  it('counts and lists the rows with an address but no coordinates, with why and their zone', () => {
    const preview: ImportPreview = {
      importId: 'i',
      fileName: 'Crime_Data.csv',
      format: 'api-csv',
      mapping: 'Charlottesville',
      bytes: 4096,
      rows: 300,
      valid: 0,
      duplicatesInFile: 0,
      existing: 0,
      held: { replace: 0, describe: 0, keptApi: 0, keptHeld: 0, unchanged: 0 },
      errorCount: 0,
      errors: [],
      failures: [],
      repeats: { ids: 0, differing: 0, listed: [] },
      sample: [],
      unplaced: {
        rows: 300,
        zone: 'America/New_York',
        zoneFrom: 'mapping',
        listed: [
          { row: 1, address: '800 ELLIOTT AVE', reason: 'no coordinates (the file has no location columns)' },
        ],
      },
    };
    const html = renderToStaticMarkup(<ImportPreviewView preview={preview} />);
    expect(html).toContain('data-testid="import-unplaced"');
    expect(html).toContain('300 rows have an address but no coordinates');
    expect(html).toContain('America/New_York, the mapping’s zone');
    expect(html).toContain('; the first 1');
    expect(html).toContain(
      '<td>1</td><td>800 ELLIOTT AVE</td><td>no coordinates (the file has no location columns)</td>',
    );
    expect(
      importOutcome({ inserted: 0, updated: 0, unchanged: 0, skipped: 0, ms: 100, unplaced: 300, placed: 0 }),
    ).toContain('300 without coordinates kept as unplaced');
  });
});
