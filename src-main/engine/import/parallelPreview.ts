/**
 * The preview of a large CSV file on several threads: this (the engine) thread reads the file and
 * cuts it into chunks of whole records (csvRecords.ts's `completeRecords`, the parser's own rules,
 * so a quoted line break never splits a record) and numbers their rows; each check thread
 * (checkWorker.ts) parses and checks its chunks and stages the valid rows in its own file. The
 * findings come back per chunk and are added up in file order, so the preview reads exactly as the
 * one-thread preview of the same file.
 */
import { createReadStream } from 'node:fs';
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { startWorkerThread, workerEntry } from '../workerThreads';
import type { CheckWorkerData, FromCheckWorker, ToCheckWorker } from './checkWorker';
import { headerOf } from './columns';
import { completeRecords, CsvRecordReader, UnclosedQuote } from './csvRecords';
import type { Detected } from './detect';
import { FileProblem } from './fileProblem';
import { MAX_RECORD_CHARS, notUtf8, recordTooLong, unclosedQuote } from './readRecords';
import { CheckTally, type CheckedChunk, type CheckRules } from './rowChecks';
import { InvalidUtf8, textChunks } from './utf8Text';

const READ_BYTES = 1 << 20;
/** Chunks waiting at one thread at most (enough to keep it busy, bounded memory). */
const IN_FLIGHT = 2;

export type ParallelCheck = {
  file: string;
  detected: Detected;
  /** One staging file per thread. */
  stageFiles: string[];
  onBytes: (bytes: number) => void;
  /** Characters per chunk handed to a thread (about; whole records). */
  chunkChars?: number;
  /** Bytes per read (1 MB). */
  readBytes?: number;
  /** The threads' heap limits. */
  limits?: ResourceLimits;
  rules: CheckRules;
  /** Cancels the check: the threads end at once and the call throws the signal's reason. */
  signal?: AbortSignal;
};

export async function checkCsvInParallel(job: ParallelCheck): Promise<CheckTally> {
  const chunkChars = job.chunkChars ?? READ_BYTES;
  const tally = new CheckTally();
  const done = new Map<number, CheckedChunk>();
  let nextToTally = 0;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const threads: { worker: Worker; inFlight: number; closed: Promise<void> }[] = [];
  const onAbort = () => {
    failure ??= job.signal?.reason as Error;
    notify();
  };
  job.signal?.addEventListener('abort', onAbort, { once: true });

  const start = (header: string[]) => {
    for (const stageFile of job.stageFiles) {
      const worker = startWorkerThread(
        workerEntry(import.meta.url, 'checkWorker.ts', 'importWorker.js'),
        { stageFile, detected: job.detected, header, rules: job.rules } satisfies CheckWorkerData,
        [],
        job.limits,
      );
      const thread = { worker, inFlight: 0, closed: Promise.resolve() };
      thread.closed = new Promise<void>((resolve, reject) => {
        worker.on('message', (m: FromCheckWorker) => {
          if (m.type === 'checked') {
            thread.inFlight--;
            done.set(m.seq, m.chunk);
            for (let c = done.get(nextToTally); c; c = done.get(nextToTally)) {
              done.delete(nextToTally++);
              tally.add(c);
            }
          } else if (m.type === 'closed') resolve();
          else failure ??= m.fileProblem ? new FileProblem(m.message) : new Error(m.message);
          notify();
        });
        worker.on('error', (error) => {
          failure ??= error;
          reject(error);
          notify();
        });
        worker.on('exit', () => resolve());
      });
      thread.closed.catch(() => undefined);
      threads.push(thread);
    }
  };

  let seq = 0;
  /** Hands `text` (whole records, the first numbered `firstRow`; in parts) to the least busy thread. */
  const dispatch = async (text: string | string[], firstRow: number) => {
    for (;;) {
      if (failure) throw failure;
      const idle = threads.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
      if (idle.inFlight < IN_FLIGHT) {
        idle.inFlight++;
        idle.worker.postMessage({ type: 'chunk', seq: seq++, text, firstRow } satisfies ToCheckWorker);
        return;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };

  const sep = job.detected.separator ?? ',';
  const stream = createReadStream(job.file, { highWaterMark: job.readBytes ?? READ_BYTES });
  const utf8 = textChunks(job.detected.encoding);
  let text = '';
  let header: string[] | null = null;
  let nextRow = 1;
  /** The number of the record the text read so far ends in (0: the header). */
  const currentRow = () => (header ? nextRow + completeRecords(text, Infinity, sep).count : 0);
  const decode = (bytes: Buffer | null): string => {
    try {
      return bytes ? utf8.decode(bytes) : utf8.end();
    } catch (error) {
      if (!(error instanceof InvalidUtf8)) throw error;
      text += error.before;
      if (!header && completeRecords(text, 1, sep).count > 0)
        throw notUtf8(
          error.offset,
          1 + completeRecords(text.slice(completeRecords(text, 1, sep).end), Infinity, sep).count,
        );
      throw notUtf8(error.offset, currentRow());
    }
  };
  try {
    let first = true;
    for await (const piece of stream) {
      job.signal?.throwIfAborted();
      job.onBytes(stream.bytesRead);
      const decoded = decode(piece as Buffer);
      if (header && decoded.length >= chunkChars && !decoded.includes('"') && !text.includes('"')) {
        // Without quotes a record ends at a line break: the piece is cut where it lies, never
        // joined to the text before it — joining copies the megabyte (V8 flattens the rope at the
        // first indexOf), ~1.6 ms of this thread's time per MB read.
        const nl = decoded.indexOf('\n');
        if (nl >= 0) {
          const head = text + decoded.slice(0, nl + 1); // the record the text before began, if any
          const body = decoded.slice(nl + 1);
          const cut = completeRecords(body, Infinity, sep);
          await dispatch([head, body.slice(0, cut.end)], nextRow);
          nextRow += completeRecords(head, Infinity, sep).count + cut.count;
          text = body.slice(cut.end);
          continue;
        }
      }
      text += first ? decoded.replace(/^\uFEFF/, '') : decoded;
      first = false;
      if (!header) {
        const cut = completeRecords(text, 1, sep);
        if (cut.count === 0) {
          if (text.length > MAX_RECORD_CHARS) throw recordTooLong(0);
          continue;
        }
        header = readHeader(text.slice(0, cut.end), job.detected);
        text = text.slice(cut.end);
        start(header);
      }
      if (text.length < chunkChars) continue;
      const { end, count } = completeRecords(text, Infinity, sep);
      if (end === 0) {
        // One record longer than a chunk: wait for its end (within reason).
        if (text.length > MAX_RECORD_CHARS) throw recordTooLong(nextRow);
        continue;
      }
      await dispatch(text.slice(0, end), nextRow);
      nextRow += count;
      text = text.slice(end);
    }
    text += decode(null);
    if (!header) {
      header = readHeader(text, job.detected);
      text = '';
      start(header);
    }
    // The rest, which may end without a line break: the thread reads it to the end.
    if (text.length > 0) await dispatch(text, nextRow);
    for (const t of threads) t.worker.postMessage({ type: 'close' } satisfies ToCheckWorker);
    await Promise.race([Promise.all(threads.map((t) => t.closed)), aborted(job.signal)]);
    job.signal?.throwIfAborted();
    if (failure) throw failure;
    if (nextToTally !== seq) throw new Error('A check thread stopped before it answered.');
    return tally;
  } finally {
    job.signal?.removeEventListener('abort', onAbort);
    stream.destroy();
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }
}

/** Settles when `signal` aborts (never without one). */
function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
}

/** The header's field names, canonical; a FileProblem when they are not Blotter's (columns.ts). */
function readHeader(text: string, detected: Detected): string[] {
  const reader = new CsvRecordReader(detected.separator);
  let records: string[][];
  try {
    records = [...reader.push(text), ...reader.end()];
  } catch (error) {
    if (error instanceof UnclosedQuote) throw unclosedQuote(0);
    throw error;
  }
  return headerOf(records[0] ?? [], detected.mapping, 'columns');
}
