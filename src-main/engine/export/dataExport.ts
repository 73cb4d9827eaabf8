/**
 * The CSV and GeoJSON runner of an export job: batches of the filtered rows (batches.ts) formatted
 * (batchFormat.ts) into a FileSink, one write per batch — on export threads for large sets
 * (parallelExport.ts), in this thread otherwise. Checks for a cancel between batches; a cancel or a
 * failure removes the partial file. A complete file is handed back still under its temporary name:
 * the job renames it into place together with its manifest (jobs.ts).
 */
import type { ResourceLimits } from 'node:worker_threads';
import { createLogger } from '../log';
import { batchReader, exportBatches, rowsInCdidOrder } from './batches';
import { unplacedCsv } from '../import/places/unplacedExport';
import { BatchFormatter } from './batchFormat';
import { FileSink } from '../files/fileSink';
import { rowsOf, type ExportCore, type Runner, type RunnerResult } from './jobs';
import { exportOnThreads } from './parallelExport';
import { endOfRunner } from './runnerEnd';

export type DataExportOptions = {
  /** Sets of this many rows are exported on threads. */
  threadsMinRows: number;
  threads: number;
  /** The export threads' heap limits (parallelExport.ts has its own default). */
  threadLimits?: ResourceLimits;
  /** Rows per batch on threads (parallelExport.ts has its own default). */
  batchRows?: number;
};

const log = createLogger('export');

/**
 * One export thread beside the engine thread: twice the speed of one thread (1M rows: ~340k rows/s
 * against ~230k on a 2-core machine) within the memory bound (each thread's heap and connection
 * cost ~40 MB; two threads took the growth past 100 MB).
 */
const DEFAULTS: DataExportOptions = {
  threadsMinRows: 50_000,
  threads: 1,
};

export const dataRunner: Runner = (job, ctx, progress) => createDataRunner()(job, ctx, progress);

export const createDataRunner =
  (options: Partial<DataExportOptions> = {}): Runner =>
  (job, ctx: ExportCore, progress) => {
    const { threadsMinRows, threads, threadLimits, batchRows } = { ...DEFAULTS, ...options };
    let sink = new FileSink(job.dest.path, job.id);
    // The file stays under its temporary name: the job publishes it with its manifest (jobs.ts).
    const run = async (): Promise<RunnerResult | null> => {
      const resolved = rowsOf(job);
      const format = new BatchFormatter(resolved.snapshot);
      const csv = job.format === 'csv';
      const head = csv ? BatchFormatter.csvHeader(job.bom) : BatchFormatter.geojsonHead;
      const onWritten = (written: number) => {
        job.done = written;
        progress();
      };
      if (resolved.set.rows.length >= threadsMinRows) {
        try {
          await sink.write(head);
          const read = batchReader(ctx.db, resolved.snapshot);
          const done = await exportOnThreads({
            dbFile: ctx.db.name,
            format: csv ? 'csv' : 'geojson',
            snapshot: resolved.snapshot,
            order: rowsInCdidOrder(resolved),
            sink,
            threads,
            ...(threadLimits ? { limits: threadLimits } : {}),
            ...(batchRows ? { batchRows } : {}),
            // This thread formats a share too, from the snapshot (features without the separator first).
            local: (rows, reuse) => {
              const batch = read(rows);
              const text = csv ? format.csvBytes(batch, reuse) : format.geojson(batch, true).slice(1);
              return { text, written: batch.rows.length };
            },
            // CSV: 2 batches here for each one on the thread (measured: the lanes then finish together).
            localShare: csv ? 2 : 1,
            cancelled: () => job.cancelRequested,
            onWritten,
          });
          if (!done || job.cancelRequested) return null;
          if (!csv) await sink.write(BatchFormatter.geojsonTail);
          const extra = job.includeUnplaced ? unplacedCsv(ctx.db) : null;
          if (extra) await sink.write(extra.text);
          return { bytes: await sink.finish(), written: done.written + (extra?.rows ?? 0), file: sink };
        } catch (error) {
          if (job.cancelRequested) throw error;
          // A thread that failed (a batch too big for its heap, a missing bundle): start the file
          // again on this thread alone.
          log.warn('the export threads failed; writing the file on the engine thread', { error });
          await sink.abort();
          sink = new FileSink(job.dest.path, job.id);
          onWritten(0);
        }
      }
      await sink.write(head);
      let written = 0;
      for await (const batch of exportBatches(ctx.db, resolved)) {
        if (job.cancelRequested) return null;
        // One write per batch (~500 kB of CSV): lines written straight into its Buffer.
        await sink.write(csv ? format.csvBytes(batch) : format.geojson(batch, written === 0));
        written += batch.rows.length;
        onWritten(written);
      }
      if (job.cancelRequested) return null;
      if (!csv) await sink.write(BatchFormatter.geojsonTail);
      const extra = job.includeUnplaced ? unplacedCsv(ctx.db) : null;
      if (extra) await sink.write(extra.text);
      return { bytes: await sink.finish(), written: written + (extra?.rows ?? 0), file: sink };
    };
    // The loop sees cancelRequested at its next batch and aborts the sink; cancel waits for that.
    return endOfRunner(job, run(), () => sink.abort());
  };
