/**
 * Runs an import's heavy steps on its helper thread (mergeWorker.ts), off the engine's call path:
 * the preview's weighing of the staged rows and the run's merge. A thread that cannot start (no
 * bundle, no memory) is told apart from a task that failed: the caller then does the work here, as
 * before. A task's failure comes back as it was thrown — an EngineError as such, a SQLite error with
 * its code (so store/localFailure.ts still names a full disk) — and the merge's transaction has
 * rolled back on the thread's connection.
 */
import type { TransferListItem } from 'node:worker_threads';
import { EngineError } from '../errors';
import { startWorkerThread, workerEntry, settleOnce } from '../workerThreads';
import { ReferenceProblem } from './places/references';
import type { CancelFlag, FromMergeWorker, MergeWorkerData, TaskFailure } from './mergeWorker';

/** The thread never ran its task: do the work on this thread instead. */
export class NoHelperThread extends Error {
  constructor(cause: unknown) {
    super('the import helper thread did not start', { cause });
    this.name = 'NoHelperThread';
  }
}

/**
 * `signal` cancels the task: the thread is ended at once (a merge's open transaction rolls back as
 * its connection closes with the thread), and the promise rejects with the signal's reason once the
 * thread has exited — never before, so the write turns are released only after the rollback.
 */
export function onHelperThread<T>(
  data: MergeWorkerData,
  onProgress: (fraction: number) => void = () => undefined,
  transfer: TransferListItem[] = [],
  signal?: AbortSignal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const cancelFlag = new Int32Array(new SharedArrayBuffer(4));
    let worker;
    try {
      worker = startWorkerThread(
        workerEntry(import.meta.url, 'mergeWorker.ts', 'mergeWorker.js'),
        signal ? ({ ...data, cancelFlag } satisfies MergeWorkerData & CancelFlag) : data,
        transfer,
      );
    } catch (error) {
      reject(new NoHelperThread(error));
      return;
    }
    let started = false;
    const { settle } = settleOnce(worker, reject, {
      // Before its task began the thread never ran it: the work is done on this thread instead.
      failed: (error) => (started ? error : new NoHelperThread(error)),
      stopped: (code) => {
        if (signal?.aborted) return signal.reason as Error;
        const stopped = new Error(`the import helper thread stopped (exit ${code}) before it answered`);
        return started ? stopped : new NoHelperThread(stopped);
      },
      terminate: false,
    });
    const thread = worker;
    signal?.addEventListener(
      'abort',
      () => {
        Atomics.store(cancelFlag, 0, 1); // a statement running stops at its next check
        void thread.terminate();
      },
      { once: true },
    );
    worker.on('message', (m: FromMergeWorker) => {
      if (m.type === 'started') {
        started = true;
        onProgress(0); // the task began: a run's progress says "writing" from now on
      } else if (m.type === 'progress') onProgress(m.fraction);
      else if (m.type === 'done') settle(() => resolve(m.value as T));
      else settle(() => reject(signal?.aborted ? (signal.reason as Error) : rebuilt(m.failure)));
    });
  });
}

function rebuilt(failure: TaskFailure): Error {
  if (failure.kind === 'engine') return new EngineError(failure.code as EngineError['code'], failure.message);
  if (failure.kind === 'reference') return new ReferenceProblem(failure.message);
  const error = new Error(failure.message) as Error & { code?: string };
  if (failure.code) error.code = failure.code;
  return error;
}
