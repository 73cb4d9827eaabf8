/**
 * The CSV and GeoJSON runner of an export job: batches of the filtered rows (batches.ts) formatted
 * (batchFormat.ts) into a FileSink, one write per batch. Checks for a cancel between batches; a cancel
 * or a failure removes the partial file.
 */
import type { EngineContext } from '../context';
import { exportBatches } from './batches';
import { BatchFormatter } from './batchFormat';
import { FileSink } from './fileSink';
import { rowsOf, type Runner } from './jobs';

export const dataRunner: Runner = (job, ctx: EngineContext, progress) => {
  const sink = new FileSink(job.dest.path, job.id);
  const run = async (): Promise<{ bytes: number; written: number } | null> => {
    const resolved = rowsOf(job);
    const format = new BatchFormatter(resolved.snapshot);
    const csv = job.format === 'csv';
    await sink.write(csv ? BatchFormatter.csvHeader(job.bom) : BatchFormatter.geojsonHead);
    let written = 0;
    for await (const batch of exportBatches(ctx.db, resolved)) {
      if (job.cancelRequested) return null;
      // One write per batch (~250 kB): short-lived strings that the young generation collects cheaply.
      await sink.write(csv ? format.csv(batch) : format.geojson(batch, written === 0));
      written += batch.rows.length;
      job.done = written;
      progress();
    }
    if (job.cancelRequested) return null;
    if (!csv) await sink.write(BatchFormatter.geojsonTail);
    return { bytes: await sink.commit(), written };
  };
  const done = run().then(
    async (result) => {
      if (!result) await sink.abort();
      return result;
    },
    async (error: unknown) => {
      await sink.abort();
      throw error;
    },
  );
  // The loop sees cancelRequested at its next batch and aborts the sink; cancel waits for that.
  job.onCancel = () =>
    done.then(
      () => undefined,
      () => undefined,
    );
  return { done };
};
