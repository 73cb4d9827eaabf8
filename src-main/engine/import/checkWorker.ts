/**
 * A thread of the parallel preview (built as out/main/importWorker.js): checks the CSV chunks the
 * engine thread cuts from a large file (whole records each) and stages their valid rows in its own
 * staging file. Messages: CheckWorkerData to start; `chunk` → `checked` (the chunk's findings, its
 * typed arrays transferred); `close` → `closed` once the staging file is committed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Detected } from './detect';
import { RecordDecoder } from './readRecords';
import { FileProblem } from './fileProblem';
import { checkRecords, type CheckedChunk, type CheckRules } from './rowChecks';
import { StageWriter } from './stage';
import { HELPER_NICE, runBelowHost } from '../threadPriority';

export type CheckWorkerData = { stageFile: string; detected: Detected; header: string[]; rules: CheckRules };
export type ToCheckWorker =
  /** `text`: whole records, in parts the engine thread did not join (each part ends a record). */
  { type: 'chunk'; seq: number; text: string | string[]; firstRow: number } | { type: 'close' };
export type FromCheckWorker =
  | { type: 'checked'; seq: number; chunk: CheckedChunk }
  | { type: 'closed'; staged: number }
  /** `fileProblem`: the file itself is refused (fileProblem.ts), not the thread failing. */
  | { type: 'failed'; message: string; fileProblem?: boolean };

const port = parentPort;
if (!port) throw new Error('checkWorker.ts runs as a worker thread');
const { stageFile, detected, header, rules } = workerData as CheckWorkerData;
const stage = new StageWriter(stageFile);
// Below the engine thread: while the file is checked, the engine's calls get a core first.
runBelowHost(HELPER_NICE);

port.on('message', (message: ToCheckWorker) => {
  try {
    if (message.type === 'close') {
      stage.close();
      port.postMessage({ type: 'closed', staged: stage.count } satisfies FromCheckWorker);
      port.close();
      return;
    }
    const decoder = new RecordDecoder(detected, { header, firstRow: message.firstRow });
    const parts = typeof message.text === 'string' ? [message.text] : message.text;
    const records = parts.flatMap((part) => decoder.push(part));
    records.push(...decoder.end());
    const chunk = checkRecords(records, detected, stage, rules);
    port.postMessage({ type: 'checked', seq: message.seq, chunk } satisfies FromCheckWorker, [
      chunk.cdid.buffer as ArrayBuffer,
    ]);
  } catch (error) {
    port.postMessage({
      type: 'failed',
      message: error instanceof Error ? error.message : String(error),
      ...(error instanceof FileProblem ? { fileProblem: true } : {}),
    } satisfies FromCheckWorker);
  }
});
