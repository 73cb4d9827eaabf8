import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Manifest, ReportModel, type StartExportOutput } from '../../../src-shared/exports';
import { filterWords } from '../../../src-shared/filterWords';
import { exportsDirOf } from '../files/destination';
import {
  apiRow,
  exportFinished,
  openTestEngine,
  TRICKY,
  writeIncidents,
  type TestEngine,
} from '../export/exportTesting';
import { intervalFor } from '../../../src-shared/intervals';
import { outlineOf } from '../../../src-shared/geo';

let t: TestEngine;
beforeEach(() => {
  t = openTestEngine();
  writeIncidents(t.db, [
    ...TRICKY,
    ...Array.from({ length: 50 }, (_, k) => apiRow(200 + k, { date: '05/11/25 10:00 PM' })),
  ]);
});
afterEach(() => t.close());

const call = <T>(name: string, input: unknown): Promise<T> => t.call<T>(name, input);

describe('PDF export', () => {
  it('hands the host a print token; the report page gets the model; the printed file is checked and kept', async () => {
    const started = await call<StartExportOutput>('startExport', {
      format: 'pdf',
      filters: { preset: 'all', types: ['Theft'] },
    });
    expect(started.print?.token).toBeTruthy();
    expect(t.events.at(-1)).toMatchObject({ type: 'exportProgress', state: 'printing', format: 'pdf' });
    const model = ReportModel.parse(await call('getReport', { jobId: started.jobId }));
    expect(model).toMatchObject({ title: 'Incident report', total: 56, version: '9.8.7' });
    expect(model.byType).toEqual([{ type: 'Theft', count: 56 }]);
    expect(model.filterWords).toContain('Types: Theft');
    expect(model.series.interval).toBe('day');
    expect(model.grid.counts[0]?.[22]).toBe(50); // Sunday 22:00, local time
    expect(model.top.every((l) => l.count >= 2)).toBe(true); // repeat locations only
    expect(model).toMatchObject({ agency: '', notes: '', incidents: null });
    expect(model.map.shown).toBe(56);
    expect(model.provenance.notes.join(' ')).toMatch(/block-level/);

    expect(await call('finishReport', { jobId: started.jobId, token: 'wrong' })).toEqual({ accepted: false });
    writeFileSync(started.print?.file as string, '%PDF-1.4\n% a tiny test file\n');
    expect(await call('finishReport', { jobId: started.jobId, token: started.print?.token })).toEqual({
      accepted: true,
    });
    const done = await t.waitFor(exportFinished(started.jobId));
    expect(done.state).toBe('done');
    expect(existsSync(done.file?.path as string)).toBe(true);
    expect(Manifest.parse(done.manifest)).toMatchObject({
      format: 'pdf',
      counts: { total: 56, written: 56 },
    });
    expect(readdirSync(exportsDirOf(t.dir.path)).sort()).toEqual(
      [done.file?.name, done.file?.manifestName].sort(),
    );
  });

  it('prints the title, agency, notes and incident list last chosen (kept in settings)', async () => {
    await call('updateSettings', {
      report: {
        title: 'Weekly theft bulletin',
        agency: 'Metro PD',
        notes: 'Watch Main St.',
        incidentList: true,
      },
    });
    const started = await call<StartExportOutput>('startExport', {
      format: 'pdf',
      filters: { preset: 'all', types: ['Theft'] },
    });
    const model = ReportModel.parse(await call('getReport', { jobId: started.jobId }));
    expect(model).toMatchObject({
      title: 'Weekly theft bulletin',
      agency: 'Metro PD',
      notes: 'Watch Main St.',
    });
    expect(model.incidents?.total).toBe(56);
    expect(model.incidents?.rows).toHaveLength(56);
    const utc = model.incidents?.rows.map((r) => r.occurredUtc) ?? [];
    expect(utc).toEqual([...utc].sort((a, b) => b - a)); // newest first
    expect(await call('getSettings', {})).toMatchObject({ report: { agency: 'Metro PD' } });
    await call('cancelExport', { jobId: started.jobId });
  });

  it('a PDF whose manifest cannot be written is not left standing without it', async () => {
    const folder = path.join(t.dir.path, 'out');
    mkdirSync(path.join(folder, 'bulletin.manifest.json', 'in the way'), { recursive: true });
    const started = await call<StartExportOutput>('startExport', {
      format: 'pdf',
      filters: { preset: 'all' },
      destination: { path: path.join(folder, 'bulletin.pdf') },
    });
    writeFileSync(started.print?.file as string, '%PDF-1.4\n% a tiny test file\n');
    expect(await call('finishReport', { jobId: started.jobId, token: started.print?.token })).toEqual({
      accepted: true,
    });
    const done = await t.waitFor(exportFinished(started.jobId));
    expect(done.state).toBe('failed');
    // Before, bulletin.pdf was renamed into place before its manifest was written.
    expect(readdirSync(folder)).toEqual(['bulletin.manifest.json']);
  });

  it('fails a print that is not a PDF, and says why a host could not print', async () => {
    const a = await call<StartExportOutput>('startExport', { format: 'pdf', filters: {} });
    writeFileSync(a.print?.file as string, '<html>not a pdf</html>');
    await call('finishReport', { jobId: a.jobId, token: a.print?.token });
    expect(await t.waitFor(exportFinished(a.jobId))).toMatchObject({
      state: 'failed',
      error: { message: 'The printed report is not a PDF file.' },
    });
    const b = await call<StartExportOutput>('startExport', { format: 'pdf', filters: {} });
    await call('finishReport', {
      jobId: b.jobId,
      token: b.print?.token,
      failed: 'Chromium is not installed.',
    });
    expect(await t.waitFor(exportFinished(b.jobId))).toMatchObject({
      state: 'failed',
      error: { message: expect.stringContaining('Chromium is not installed') },
    });
    expect(readdirSync(exportsDirOf(t.dir.path))).toEqual([]);
  });

  it('cancels while printing: the partial file goes, a late answer is refused', async () => {
    const s = await call<StartExportOutput>('startExport', { format: 'pdf', filters: {} });
    writeFileSync(s.print?.file as string, '%PDF-1.4 partial');
    expect(await call('cancelExport', { jobId: s.jobId })).toEqual({ cancelled: true });
    expect((await t.waitFor(exportFinished(s.jobId))).state).toBe('cancelled');
    expect(existsSync(s.print?.file as string)).toBe(false);
    expect(await call('finishReport', { jobId: s.jobId, token: s.print?.token })).toEqual({
      accepted: false,
    });
    await expect(call('getReport', { jobId: s.jobId })).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('report pieces', () => {
  it('picks day, week or month buckets by the length of the range', () => {
    expect(intervalFor('2025-01-01', '2025-02-15')).toBe('day');
    expect(intervalFor('2025-01-01', '2025-12-31')).toBe('week');
    expect(intervalFor('2023-01-01', '2025-12-31')).toBe('month');
    expect(intervalFor(null, null)).toBe('month');
  });

  it('outlines a circle as a closed ring around its centre', () => {
    const ring = outlineOf({ kind: 'circle', lat: 41.88, lon: -87.63, radiusMi: 1 });
    expect(ring).toHaveLength(72);
    expect(ring[0]?.[0]).toBeCloseTo(41.88 + 1 / 69.05, 6);
  });

  it('puts the filters into words', () => {
    expect(
      filterWords(
        {
          preset: '30d',
          types: ['Theft', 'Arson'],
          hours: [22, 6],
          weekdays: [6, 0],
          text: ' oak ',
          area: { areaId: 3 },
        },
        { range: { from: '2025-04-11', to: '2025-05-10' }, areaName: () => 'Downtown' },
      ),
    ).toEqual([
      'Types: Theft, Arson',
      'Dates: 2025-04-11 to 2025-05-10 (last 30 days)',
      'Hours: 22:00 to 06:00 local time (before 06:00)',
      'Weekdays: Saturday, Sunday',
      'Text: oak',
      'Area: Downtown',
      'Incidents the API has since removed are left out',
    ]);
    expect(filterWords({})[1]).toBe('Dates: all dates the archive holds');
  });
});
