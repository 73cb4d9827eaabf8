/**
 * Runs an analysis on a helper thread (analysisWorker.ts) so the engine thread keeps answering:
 * progress events while it runs, cancel by AbortSignal (the thread is terminated at once), the
 * columns copied (or transferred, when the caller owns them: never the snapshot's own arrays). A refusal (too few incidents, bad bands) comes back as
 * AnalysisRefused with the words for the user.
 */
import { createLogger } from '../log';
import { startWorkerThread, workerEntry, settleOnce } from '../workerThreads';
import type { FromAnalysisWorker } from './analysisWorker';
import { revive, transferables, type AnalysisRequest, type AnalysisResultOf } from './jobs';
import { AnalysisRefused } from './points';
import type { Progress } from './progress';

const log = createLogger('analysis');

export class AnalysisCancelled extends Error {
  override readonly name = 'AnalysisCancelled';
  constructor() {
    super('The analysis was cancelled.');
  }
}

export type RunOptions = {
  signal?: AbortSignal;
  onProgress?: Progress;
  /** Hand the request's typed arrays to the thread (they become unusable here); default: copy them. */
  transfer?: boolean;
};

export function runAnalysis<R extends AnalysisRequest>(
  request: R,
  options: RunOptions = {},
): Promise<AnalysisResultOf[R['kind']]> {
  const { signal, onProgress } = options;
  if (signal?.aborted) return Promise.reject(new AnalysisCancelled());
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const worker = startWorkerThread(
      workerEntry(import.meta.url, 'analysisWorker.ts', 'analysisWorker.js'),
      request,
      options.transfer ? transferables(request) : [],
    );
    const end = settleOnce(worker, reject, {
      stopped: (code) => new Error(`The analysis thread stopped unexpectedly (exit code ${code}).`),
      ...(signal ? { signal } : {}),
      cancelled: () => new AnalysisCancelled(),
    });
    const finish = end.settle;
    worker.on('message', (m: FromAnalysisWorker) => {
      if (m.type === 'progress') {
        if (!end.settled) onProgress?.(m.fraction);
      } else if (m.type === 'done') {
        log.info('analysis done', { kind: request.kind, ms: Math.round(performance.now() - started) });
        finish(() => resolve(revive(m.result) as AnalysisResultOf[R['kind']]));
      } else finish(() => reject(m.refused ? new AnalysisRefused(m.message) : new Error(m.message)));
    });
  });
}
