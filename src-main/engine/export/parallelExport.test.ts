import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src-shared/contract';
import type { StartExportOutput } from '../../../src-shared/exports';
import { rowsInCdidOrder } from './batches';
import { BatchFormatter } from './batchFormat';
import {
  apiRow,
  exportFinished,
  openTestEngine,
  TRICKY,
  writeIncidents,
  type TestEngine,
} from './exportTesting';
import { FileSink } from '../files/fileSink';
import { exportOnThreads } from './parallelExport';
import { createDataRunner, type DataExportOptions } from './dataExport';
import { ExportJobs } from './jobs';
import { longestStretchDuring } from '../testing/stretches';

let t: TestEngine;
beforeEach(() => {
  t = openTestEngine();
  const many = Array.from({ length: 3000 }, (_, k) =>
    apiRow(1000 + k * 3, {
      type: ['Theft', 'Assault, aggravated', '=Arrest'][k % 3] as string,
      address: k % 7 ? `${k} N "QUOTED" AVE` : `${k} W MAIN ST`,
      lat: 41.6 + (k % 97) / 1000,
      lon: -87.9 + (k % 89) / 1000,
      date: `0${1 + (k % 9)}/1${k % 10}/25 0${1 + (k % 9)}:15 PM`,
    }),
  );
  writeIncidents(t.db, [...TRICKY, ...many]);
  t.db
    .prepare(`UPDATE incidents SET description = 'said "no",' || char(10) || '=then left' WHERE cdid % 5 = 0`)
    .run();
  t.db
    .prepare(`UPDATE incidents SET removed_at = last_seen, removed_reason = 'gone' WHERE cdid % 11 = 0`)
    .run();
  // Kept columns of a mapped import (the attributes column) on every fourth row.
  t.db.prepare(`INSERT INTO import_runs (id, file_name, imported_at) VALUES (1, 'rms.csv', 0)`).run();
  t.db
    .prepare(
      `INSERT INTO incident_imports (cdid, run_id, external_id, attributes)
       SELECT cdid, 1, 'X' || cdid, json_object('Beat', cdid % 40, 'Note', '=a, "b"' || char(10) || 'ü')
       FROM incidents WHERE cdid % 4 = 0`,
    )
    .run();
});
afterEach(() => t.close());

async function oneThread(format: 'csv' | 'geojson', filters: object): Promise<string> {
  const r = await t.engine.dispatch('startExport', { format, filters, bom: false });
  if (!r.ok) throw new Error(r.error.message);
  const done = await t.waitFor(exportFinished((r.value as StartExportOutput).jobId));
  return readFileSync(done.file?.path as string, 'utf8');
}

async function onThreads(
  format: 'csv' | 'geojson',
  filters: object,
): Promise<{ text: string; progress: number[] }> {
  const resolved = await t.engine.context.services.query.resolve(filters);
  const file = path.join(t.dir.path, `threads.${format}`);
  const sink = new FileSink(file, 'job1');
  const progress: number[] = [];
  await sink.write(format === 'csv' ? BatchFormatter.csvHeader(false) : BatchFormatter.geojsonHead);
  const done = await exportOnThreads({
    dbFile: t.db.name,
    format,
    snapshot: resolved.snapshot,
    order: rowsInCdidOrder(resolved),
    sink,
    threads: 3,
    batchRows: 97,
    cancelled: () => false,
    onWritten: (n) => progress.push(n),
  });
  if (format === 'geojson') await sink.write(BatchFormatter.geojsonTail);
  await sink.commit();
  expect(done?.written).toBe(resolved.set.rows.length);
  expect(progress.at(-1)).toBe(resolved.set.rows.length);
  return { text: readFileSync(file, 'utf8'), progress };
}

describe('an export on threads', () => {
  it('writes the same CSV and GeoJSON, byte for byte, as the one-thread path', async () => {
    for (const filters of [
      { preset: 'all', includeRemoved: true },
      { preset: 'all', includeRemoved: false, types: ['Theft'] },
    ]) {
      for (const format of ['csv', 'geojson'] as const) {
        const expected = await oneThread(format, filters);
        const { text, progress } = await onThreads(format, filters);
        expect(text.length).toBeGreaterThan(1000);
        expect(text).toContain(format === 'csv' ? '"{""Beat"":' : '"attributes":{"Beat":');
        expect(text).toBe(expected);
        expect(progress.length).toBeGreaterThan(5);
        expect(progress.every((n, k) => k === 0 || n > (progress[k - 1] as number))).toBe(true);
      }
    }
    // The GeoJSON is one valid document.
    expect(JSON.parse((await onThreads('geojson', { preset: 'all' })).text).features.length).toBeGreaterThan(
      2000,
    );
  });

  it('stops at a cancel and leaves the partial file to the caller', async () => {
    const resolved = await t.engine.context.services.query.resolve({ preset: 'all' });
    const sink = new FileSink(path.join(t.dir.path, 'cancelled.csv'), 'job2');
    let batches = 0;
    const done = await exportOnThreads({
      dbFile: t.db.name,
      format: 'csv',
      snapshot: resolved.snapshot,
      order: rowsInCdidOrder(resolved),
      sink,
      threads: 2,
      batchRows: 100,
      cancelled: () => ++batches > 3,
      onWritten: () => undefined,
    });
    expect(done).toBeNull();
    await sink.abort();
  });

  const jobsWith = (options: Partial<DataExportOptions>): ExportJobs => {
    const runner = createDataRunner(options);
    return new ExportJobs(t.engine.context, t.engine.context.services.query, {
      csv: runner,
      geojson: runner,
      gpkg: runner,
      shp: runner,
      kml: runner,
      pdf: runner,
    });
  };

  async function throughRunner(
    options: Partial<DataExportOptions>,
    format: 'csv' | 'geojson',
  ): Promise<string> {
    const jobs = jobsWith(options);
    const started = await jobs.start({ format, filters: { preset: 'all', includeRemoved: true }, bom: true });
    const done = await t.waitFor(exportFinished(started.jobId), 30_000);
    expect(done.state).toBe('done');
    return readFileSync(done.file?.path as string, 'utf8');
  }

  it('the export job writes the same file with a thread and this one sharing the batches', async () => {
    for (const format of ['csv', 'geojson'] as const) {
      const here = await throughRunner({ threadsMinRows: Infinity }, format);
      const shared = await throughRunner({ threadsMinRows: 0, threads: 1 }, format);
      expect(shared).toBe(here);
    }
  });

  it('writes the file on the engine thread when the export threads fail', async () => {
    const here = await throughRunner({ threadsMinRows: Infinity }, 'csv');
    // A heap far too small for any thread to start in.
    const fallback = await throughRunner(
      { threadsMinRows: 0, threadLimits: { maxOldGenerationSizeMb: 1, maxYoungGenerationSizeMb: 1 } },
      'csv',
    );
    expect(fallback).toBe(here);
    expect(readFileSync(path.join(t.dir.path, 'logs', 'blotter.log'), 'utf8')).toMatch(
      /the export threads failed; writing the file on the engine thread/,
    );
  });

  it('the engine thread formats its batches in short pieces: a call asked mid-export answers (issue 31)', async () => {
    // Long rows (6 kB descriptions) in batches of 3,000: before, the engine thread formatted two
    // such batches of its own (~36 MB of CSV) in one stretch.
    writeIncidents(
      t.db,
      Array.from({ length: 6000 }, (_, k) => apiRow(100_000 + k, { address: `${k} N LONG ST` })),
    );
    t.db
      .prepare(
        `UPDATE incidents SET description = '"' || replace(hex(zeroblob(1500)), '00', 'ab, ')
         WHERE cdid >= 100000`,
      )
      .run();
    const filters = { preset: 'all' as const, includeRemoved: true };
    const expected = await throughRunner({ threadsMinRows: Infinity }, 'csv');
    const jobs = jobsWith({
      threadsMinRows: 0,
      threads: 1,
      batchRows: 3000,
      // Room for a batch this wide on the export thread (its own heap cap would send it back here).
      threadLimits: { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 32 },
    });
    await t.engine.dispatch('countIncidents', { filters }); // the filter's set is ready
    const order: string[] = [];
    let file = '';
    const longest = await longestStretchDuring(async () => {
      const started = await jobs.start({ format: 'csv', filters, bom: true });
      const end = t.waitFor(exportFinished(started.jobId), 60_000).then((e) => {
        order.push('done');
        return e;
      });
      await t.waitFor(
        (e): e is EngineEvent => e.type === 'exportProgress' && e.jobId === started.jobId && e.done > 0,
        60_000,
      );
      const counted = await t.engine.dispatch('countIncidents', {
        filters: { preset: 'all', types: ['Theft'] },
      });
      expect(counted.ok).toBe(true);
      order.push('count');
      const done = await end;
      expect(done.state).toBe('done');
      file = done.file?.path as string;
    });
    expect(readFileSync(file, 'utf8')).toBe(expected);
    expect(expected.length).toBeGreaterThan(30_000_000);
    expect(order).toEqual(['count', 'done']);
    // Before: 106–109 ms of the engine thread's CPU here (two 3,000-row batches); after, 6–11 ms.
    expect(longest).toBeLessThan(40);
  }, 120_000);
});
