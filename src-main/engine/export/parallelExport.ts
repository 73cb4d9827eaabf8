/**
 * A large CSV or GeoJSON export on more than one thread: the engine thread cuts the filtered set
 * (the query engine's, in cdid order) into batches and hands them round to export threads
 * (exportWorker.ts), each reading its batches from the archive on its own read-only connection and
 * formatting them, while it formats its own share (`local`: the one-thread path's reader and
 * formatter, from the snapshot); it writes the batches to the file in order. The file is byte for
 * byte what the one-thread path (batches.ts + batchFormat.ts) writes; a test compares them.
 *
 * The engine thread formats its batches in pieces of about LOCAL_PIECE_MS each, with a turn of the
 * event loop after every piece and every batch written (issue 31): a batch of long rows (long
 * descriptions, many kept columns) once held it for the whole batch, two at a time.
 */
import type { ResourceLimits, Worker } from 'node:worker_threads';
import type { Snapshot } from '../query/snapshot';
import { yieldToEventLoop } from '../eventLoop';
import { startWorkerThread, workerEntry } from '../workerThreads';
import type { ExportWorkerData, FromExportWorker, ToExportWorker } from './exportWorker';
import { isDenseBatch } from './batches';
import { BufferPool } from './byteLines';
import type { FileSink } from '../files/fileSink';

export type ThreadedExport = {
  dbFile: string;
  format: 'csv' | 'geojson';
  snapshot: Snapshot;
  /** The filtered set's snapshot rows, in cdid order. */
  order: Uint32Array;
  sink: FileSink;
  threads: number;
  /** The threads' heap limits (default THREAD_LIMITS). */
  limits?: ResourceLimits;
  /**
   * Formats one batch, or a piece of one, in this thread (the one-thread path's reader and formatter): this thread then
   * takes every (threads + 1)-th batch itself while the threads work on theirs.
   */
  local?: (
    rows: Uint32Array,
    reuse: ArrayBuffer | undefined,
  ) => { text: string | Uint8Array; written: number };
  /**
   * Batches this thread formats per batch of each export thread (default 1). It formats a CSV batch
   * from the snapshot in about half the time a thread takes from the store, but also writes them all.
   */
  localShare?: number;
  batchRows?: number;
  cancelled: () => boolean;
  /** Rows written so far (after each batch). */
  onWritten: (written: number) => void;
};

type Answer = Extract<FromExportWorker, { bytes: Uint8Array }>;

/** Rows per batch: small enough that a batch's garbage dies young in a small heap. */
const BATCH_ROWS = 1000;
/** The engine thread's time per piece of its own batches before the event loop gets a turn. */
const LOCAL_PIECE_MS = 8;
/** The fewest rows in a piece (a read from the store costs more than a few rows' formatting). */
const LOCAL_PIECE_MIN_ROWS = 16;
/**
 * The most (~2 ms of ordinary rows): rows are not alike — a run of long descriptions after short
 * ones would make a piece sized by the short ones many times too long.
 */
const LOCAL_PIECE_MAX_ROWS = 500;
/**
 * An export thread's heap, capped (measured on 1M rows: the same speed as unbounded, ~half the
 * memory). A batch that does not fit (thousands of 100,000-character descriptions) stops the
 * thread, and the caller writes the file on this thread instead.
 */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 16 };

/** Writes the rows to the sink; the count written, or null when cancelled. */
export async function exportOnThreads(job: ThreadedExport): Promise<{ written: number } | null> {
  const { snapshot, order, sink } = job;
  const size = job.batchRows ?? BATCH_ROWS;
  const batches = Math.ceil(order.length / size);
  const waiting = new Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void }>();
  const answers = new Map<number, Promise<Answer>>();
  const failAll = (error: Error) => {
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  };
  const workers: Worker[] = [];
  /** Set once the threads are stopped (the buffer of a write that finishes later simply goes). */
  let stopped = false;
  const entry = workerEntry(import.meta.url, 'exportWorker.ts', 'exportWorker.js');
  try {
    for (let k = 0; k < Math.max(1, job.threads); k++) {
      const worker = startWorkerThread(
        entry,
        { dbFile: job.dbFile, format: job.format } satisfies ExportWorkerData,
        [],
        job.limits ?? THREAD_LIMITS,
      );
      worker.on('message', (m: FromExportWorker) => {
        const w = waiting.get(m.seq);
        waiting.delete(m.seq);
        if ('failed' in m) w?.reject(new Error(m.failed));
        else w?.resolve(m);
      });
      worker.on('error', failAll);
      worker.on('exit', () => failAll(new Error('An export thread stopped.')));
      workers.push(worker);
    }
    // Per cycle of batches: `localShare` for this thread, then one for each export thread.
    const mine = job.local ? (job.localShare ?? 1) : 0;
    const lanes = workers.length + mine;
    const isLocal = (seq: number) => seq % lanes < mine;
    const rowsOf = (seq: number) => order.subarray(seq * size, Math.min(order.length, (seq + 1) * size));
    let sent = 0;
    const send = (seq: number) => {
      if (isLocal(seq)) return;
      const rows = rowsOf(seq);
      const dense = isDenseBatch(snapshot, rows);
      const cdids = Float64Array.from(rows, (r) => snapshot.cdid[r] as number);
      answers.set(seq, new Promise<Answer>((resolve, reject) => waiting.set(seq, { resolve, reject })));
      answers.get(seq)?.catch(() => undefined); // observed below, in order
      (workers[(seq % lanes) - mine] as Worker).postMessage({ seq, cdids, dense } satisfies ToExportWorker, [
        cdids.buffer,
      ]);
    };
    const ahead = lanes * 2;
    const localPool = new BufferPool();
    /** Once the file has a batch's bytes, their ArrayBuffer goes back to the lane that wrote them. */
    const recycle = (bytes: Uint8Array, seq: number) => () => {
      if (bytes.byteOffset !== 0) return; // a view into a bigger buffer: not ours to hand on
      const buffer = bytes.buffer as ArrayBuffer;
      if (isLocal(seq)) localPool.give(buffer);
      else if (!stopped) {
        const worker = workers[(seq % lanes) - mine] as Worker;
        worker.postMessage({ recycle: buffer } satisfies ToExportWorker, [buffer]);
      }
    };
    let written = 0;
    /** Writes one batch's (or piece's) bytes: GeoJSON features get their separator first. */
    const put = async (bytes: string | Uint8Array, count: number, seq: number) => {
      if (bytes.length > 0) {
        if (job.format === 'geojson') await sink.write(written === 0 ? '\n' : ',\n');
        await sink.write(bytes, typeof bytes === 'string' ? undefined : recycle(bytes, seq));
      }
      written += count;
      job.onWritten(written);
    };
    const local = job.local;
    let pieceRows = Math.min(size, 250, LOCAL_PIECE_MAX_ROWS);
    for (let seq = 0; seq < batches; seq++) {
      while (sent < batches && sent < seq + ahead) send(sent++);
      if (isLocal(seq) && local) {
        // In pieces sized to take about LOCAL_PIECE_MS (the next piece's rows from this one's time).
        const rows = rowsOf(seq);
        for (let at = 0; at < rows.length;) {
          const piece = rows.subarray(at, at + pieceRows);
          const started = performance.now();
          const { text, written: count } = local(piece, localPool.take());
          const ms = performance.now() - started;
          at += piece.length;
          const fit = Math.round((piece.length * LOCAL_PIECE_MS) / Math.max(ms, 0.1));
          const most = Math.min(size, LOCAL_PIECE_MAX_ROWS, Math.ceil(pieceRows * 1.5));
          pieceRows = Math.max(LOCAL_PIECE_MIN_ROWS, Math.min(most, fit));
          if (job.cancelled()) return null;
          await put(text, count, seq);
          await yieldToEventLoop();
        }
      } else {
        const answer = await (answers.get(seq) as Promise<Answer>);
        answers.delete(seq);
        if (job.cancelled()) return null;
        await put(answer.bytes, answer.written, seq);
        // Other calls (and a cancel) are answered between batches.
        await yieldToEventLoop();
      }
    }
    return { written };
  } finally {
    stopped = true;
    for (const w of workers) {
      w.removeAllListeners('exit');
      void w.terminate();
    }
  }
}
