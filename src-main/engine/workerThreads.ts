/**
 * Starting the engine's worker threads from either form of the code: a bundled .js entry as is, a
 * .ts entry (tests, `tsx` hosts) through tsWorkerBootstrap.mjs, which registers tsx first.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits, type TransferListItem } from 'node:worker_threads';

export function startWorkerThread(
  entry: string,
  workerData: unknown,
  transferList: TransferListItem[] = [],
  resourceLimits?: ResourceLimits,
): Worker {
  const limits = resourceLimits ? { resourceLimits } : {};
  if (!entry.endsWith('.ts')) return new Worker(entry, { workerData, transferList, ...limits });
  const bootstrap = path.join(path.dirname(fileURLToPath(import.meta.url)), 'tsWorkerBootstrap.mjs');
  return new Worker(bootstrap, { workerData, transferList, argv: [pathToFileURL(entry).href], ...limits });
}

/**
 * A worker entry: `source` beside the calling module when it runs from source, else the bundle
 * `bundled` in the build's folder (beside the calling bundle, or one up when it is a shared chunk).
 */
export function workerEntry(moduleUrl: string, source: string, bundled: string): string {
  const here = fileURLToPath(moduleUrl);
  const dir = path.dirname(here);
  if (here.endsWith('.ts')) return path.join(dir, source);
  const beside = path.join(dir, bundled);
  return existsSync(beside) ? beside : path.join(path.dirname(dir), bundled);
}

/** A job's one end on a helper thread (`settleOnce`). */
export type ThreadJobEnd = {
  /** Runs `outcome` (resolve or reject the job) if nothing settled it yet, and ends the thread. */
  settle(outcome: () => void): void;
  readonly settled: boolean;
};

/**
 * One job on a helper thread ends once: the first of its answer, its failure, the thread's error or
 * exit, or the caller's abort settles it; later ones are ignored. Settling ends the thread (unless
 * `terminate` is false: a thread that closes its own connection) and forgets the abort listener.
 */
export function settleOnce(
  worker: Worker,
  fail: (error: Error) => void,
  o: {
    /** The thread exited before it answered. */
    stopped: (code: number) => Error;
    /** The thread failed (default: its error as it is). */
    failed?: (error: Error) => Error;
    signal?: AbortSignal;
    /** What an abort rejects with. */
    cancelled?: () => Error;
    terminate?: boolean;
  },
): ThreadJobEnd {
  let settled = false;
  const onAbort = () => end.settle(() => fail(o.cancelled ? o.cancelled() : new Error('cancelled')));
  const end: ThreadJobEnd = {
    get settled() {
      return settled;
    },
    settle(outcome) {
      if (settled) return;
      settled = true;
      o.signal?.removeEventListener('abort', onAbort);
      if (o.terminate !== false) void worker.terminate();
      outcome();
    },
  };
  o.signal?.addEventListener('abort', onAbort, { once: true });
  worker.on('error', (error) => end.settle(() => fail(o.failed ? o.failed(error) : error)));
  worker.on('exit', (code) => end.settle(() => fail(o.stopped(code))));
  return end;
}
