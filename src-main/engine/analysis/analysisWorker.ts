/**
 * The analysis helper thread (bundled as analysisWorker.js): runs the one request in its
 * workerData and posts progress, then the result or the failure. Cancelling is the runner
 * terminating this thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runRequest, toWire, type AnalysisRequest, type WireResult } from './jobs';

export type FromAnalysisWorker =
  | { type: 'progress'; fraction: number }
  | { type: 'done'; result: WireResult }
  /** `refused`: too few incidents or bad parameters, in words for the user (not a crash). */
  | { type: 'failed'; message: string; refused: boolean };

const port = parentPort;
if (!port) throw new Error('analysisWorker.ts runs as a worker thread');
const request = workerData as AnalysisRequest;
let last = -1;
try {
  const result = runRequest(request, (fraction) => {
    // At most a hundred progress messages a run.
    const pct = Math.floor(fraction * 100);
    if (pct === last) return;
    last = pct;
    port.postMessage({ type: 'progress', fraction } satisfies FromAnalysisWorker);
  });
  port.postMessage({ type: 'done', result: toWire(request.kind, result) } satisfies FromAnalysisWorker);
} catch (error) {
  port.postMessage({
    type: 'failed',
    message: error instanceof Error ? error.message : String(error),
    refused: error instanceof Error && (error.name === 'AnalysisRefused' || error instanceof RangeError),
  } satisfies FromAnalysisWorker);
}
