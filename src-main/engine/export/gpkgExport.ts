/**
 * GeoPackage export (OGC GeoPackage 1.3, a SQLite file): the filtered incidents as the point
 * feature table `incidents` (every export column, geometry `geom`), the saved areas (and the
 * filter's drawn shape) as the polygon table `areas`, and the export manifest as the attributes
 * table `blotter_manifest` (one row, JSON) — all in EPSG:4326. Each geometry table carries the
 * RTree spatial index GDAL gives its own (`gpkgSpatialIndex.ts`), so QGIS draws a part of a
 * million points without reading them all. Written under the job's temporary
 * name a batch per transaction; a cancel or failure removes it. The manifest goes in last
 * (`embedManifest`), its `file.bytes` the file's final size.
 *
 * The file is written on the GeoPackage thread (gpkgWorker.ts, its own read-only connection to the
 * archive): the kept-columns scan, the rows, the spatial index and the file's writes held the
 * engine thread up to ~2 s at a time for a million rows (issue 31). This thread hands it the
 * filtered set's cdids a batch at a time (so a cancel is seen between batches) and the areas. An
 * archive without a file of its own (a test's in-memory one) is written here, by the same code.
 */
import { rm, writeFile } from 'node:fs/promises';
import { startWorkerThread, workerEntry } from '../workerThreads';
import { keptColumnsOf, keptLabel, keptNames, type KeptColumn } from './keptColumns';
import { GeoPackageFile, GPKG_TAKEN_NAMES, TABLES } from './gpkgFile';
import { areaOutlines, exportRowBatches, runnerOf, type Writer } from './gisRows';
import { isDenseBatch, rowsInCdidOrder } from './batches';
import { rowsOf, type ExportCore, type ExportJob, type RunnerResult } from './jobs';
import type { FromGpkgWorker, GpkgWorkerData, ToGpkgWorker } from './gpkgWorker';
import { partPathOf } from '../files/destination';
import type { Finished } from '../files/fileSink';

export { TABLES } from './gpkgFile';

/** Rows per batch handed to the thread (as the one-thread path's batches). */
const BATCH_ROWS = 2000;
/** Batches the thread may have waiting, so it never idles while this thread answers calls. */
const AHEAD = 2;

export const gpkgRunner = runnerOf(gpkgWriter());

/** What the file's writer does, here or on the thread. */
type Out = {
  kept: readonly KeptColumn[];
  keptAs: readonly string[];
  /** Writes the filtered rows; false when cancelled. */
  rows: (onWritten: (written: number) => void) => Promise<number | null>;
  finish: () => Promise<void>;
  putManifest: (text: string) => Promise<number>;
  size: () => Promise<number>;
  /** Closes the file (its final size); `stop` also ends the thread after a failure or cancel. */
  close: () => Promise<number>;
  stop: () => void;
};

export function gpkgWriter(): Writer {
  return (job, ctx, onWritten) => {
    const partPath = partPathOf(job.dest.path, job.id);
    let out: Out | null = null;
    const cleanup = async () => {
      out?.stop();
      out = null;
      await Promise.all(['', '-journal', '-wal'].map((s) => rm(partPath + s, { force: true })));
    };
    const run = async (): Promise<RunnerResult | null> => {
      // Created private (as every export's file is) before SQLite opens it with its own mode.
      await writeFile(partPath, '', { mode: 0o600, flag: 'wx' });
      const file = ctx.db.memory ? onThisThread(job, ctx, partPath) : await onGpkgThread(job, ctx, partPath);
      out = file;
      const written = await file.rows(onWritten);
      if (written === null || job.cancelRequested) return null;
      await file.finish();
      if (job.cancelRequested) return null;
      const { kept, keptAs } = file;
      const embedManifest = async (textFor: (bytes: number) => string): Promise<number> => {
        // The manifest names the file's size, which the manifest itself changes: settle on a size
        // (a page more at most, so two or three rounds).
        try {
          let size = await file.size();
          for (let round = 0; round < 6; round++) {
            const now = await file.putManifest(textFor(size));
            if (now === size) break;
            size = now;
          }
          return await file.close();
        } finally {
          file.stop();
        }
      };
      return {
        bytes: await file.size(),
        written,
        file: { partPath, path: job.dest.path } satisfies Finished,
        fileInfo: {
          crs: 'EPSG:4326' as const,
          tables: [...TABLES],
          ...(kept.length > 0
            ? { fieldNames: Object.fromEntries(keptAs.map((name, k) => [name, keptLabel(kept[k]!.key)])) }
            : {}),
        },
        embedManifest,
      };
    };
    return { done: run(), cleanup };
  };
}

/** The file written on the GeoPackage thread, from the archive's file. */
async function onGpkgThread(job: ExportJob, ctx: ExportCore, partPath: string): Promise<Out> {
  const worker = startWorkerThread(workerEntry(import.meta.url, 'gpkgWorker.ts', 'gpkgWorker.js'), {
    dbFile: ctx.db.name,
    partPath,
  } satisfies GpkgWorkerData);
  // The thread answers every message, in order, with one message (and starts with `ready`).
  const waiting: { resolve: (m: FromGpkgWorker) => void; reject: (e: Error) => void }[] = [];
  let broken: Error | null = null;
  const failAll = (error: Error) => {
    broken ??= error;
    for (const w of waiting.splice(0)) w.reject(error);
  };
  const next = () =>
    broken
      ? Promise.reject(broken)
      : new Promise<FromGpkgWorker>((resolve, reject) => waiting.push({ resolve, reject }));
  worker.on('message', (m: FromGpkgWorker) => {
    if (m.type === 'failed') return failAll(new Error(m.message));
    waiting.shift()?.resolve(m);
  });
  worker.on('error', failAll);
  worker.on('exit', () => failAll(new Error('The GeoPackage thread stopped.')));
  const send = (m: ToGpkgWorker, transfer: ArrayBuffer[] = []) => {
    const answer = next();
    answer.catch(() => undefined); // observed by the caller; one left waiting on a cancel is not
    worker.postMessage(m, transfer);
    return answer;
  };
  const stop = () => {
    worker.removeAllListeners('exit');
    failAll(new Error('The GeoPackage thread was stopped.'));
    void worker.terminate();
  };
  const ready = await next().catch((error: unknown) => {
    stop();
    throw error;
  });
  if (ready.type !== 'ready') throw new Error(`The GeoPackage thread answered ${ready.type}.`);
  const sizeOf = async (answer: Promise<FromGpkgWorker>) => {
    const m = await answer;
    return 'size' in m ? m.size : 0;
  };
  let size = ready.size;
  return {
    kept: ready.kept,
    keptAs: ready.keptAs,
    rows: async (onWritten) => {
      const resolved = rowsOf(job);
      const order = rowsInCdidOrder(resolved);
      const { snapshot } = resolved;
      const inFlight: Promise<FromGpkgWorker>[] = [];
      let written = 0;
      const settle = async () => {
        const m = await (inFlight.shift() as Promise<FromGpkgWorker>);
        if (m.type === 'written') written = m.written;
        onWritten(written);
      };
      for (let start = 0; start < order.length; start += BATCH_ROWS) {
        if (job.cancelRequested) return null;
        const rows = order.subarray(start, Math.min(order.length, start + BATCH_ROWS));
        const cdids = Float64Array.from(rows, (r) => snapshot.cdid[r] as number);
        inFlight.push(send({ type: 'rows', cdids, dense: isDenseBatch(snapshot, rows) }, [cdids.buffer]));
        if (inFlight.length > AHEAD) await settle();
      }
      while (inFlight.length > 0) await settle();
      return job.cancelRequested ? null : written;
    },
    finish: async () => {
      size = await sizeOf(send({ type: 'finish', areas: areaOutlines(job, ctx) }));
    },
    putManifest: async (text) => (size = await sizeOf(send({ type: 'manifest', text }))),
    size: () => Promise.resolve(size),
    close: () => sizeOf(send({ type: 'close' })),
    stop,
  };
}

/** The file written on this thread (an archive with no file a thread could open). */
function onThisThread(job: ExportJob, ctx: ExportCore, partPath: string): Out {
  // SQLite allows 2,000 columns a table; kept columns past 1,000 stay in `attributes` only.
  const kept = keptColumnsOf(ctx.db).slice(0, 1000);
  const keptAs = keptNames(GPKG_TAKEN_NAMES, kept);
  const file = new GeoPackageFile(partPath, kept, keptAs);
  return {
    kept,
    keptAs,
    rows: async (onWritten) => {
      for await (const rows of exportRowBatches(job, ctx)) {
        if (job.cancelRequested) return null;
        file.addRows(rows);
        onWritten(file.written);
      }
      return file.written;
    },
    finish: () => Promise.resolve(file.finish(areaOutlines(job, ctx))),
    putManifest: (text) => Promise.resolve(file.putManifest(text)),
    size: () => Promise.resolve(file.size()),
    close: () => {
      file.close();
      return Promise.resolve(file.size());
    },
    stop: () => file.close(),
  };
}
