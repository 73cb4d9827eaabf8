/**
 * Runs a boundary job on a helper thread (boundaryWorker.ts) so the engine thread keeps answering
 * while a file of 2M corners is read and checked (seconds) or a preview's areas are simplified:
 * one thread per job, ended when it answers or at once on its AbortSignal (the engine closing).
 * A refusal — a file that is not a boundary file, an invalid feature, a feature that makes no
 * area — comes back as a BoundaryRefused with the reader's words.
 */
import type { HeldFeature, HeldFile } from './heldFile';
import type { AreaShapeOf } from './featureAreas';
import { startWorkerThread, workerEntry } from '../workerThreads';

export type BoundaryJob =
  | { kind: 'read'; file: string; name: string }
  | {
      kind: 'areas';
      features: Pick<HeldFeature, 'index' | 'properties' | 'geometry'>[];
      nameField: string | null;
    };

type ResultOf<J extends BoundaryJob> = J['kind'] extends 'read' ? HeldFile : AreaShapeOf[];

export type FromBoundaryWorker =
  /** A read file's features, in order, before its `done` (whose `features` are then empty). */
  | { type: 'features'; features: HeldFeature[] }
  | { type: 'done'; result: HeldFile | AreaShapeOf[] }
  | { type: 'failed'; message: string; refused: boolean };

export class BoundaryRefused extends Error {
  override readonly name = 'BoundaryRefused';
}

export class BoundaryJobCancelled extends Error {
  override readonly name = 'BoundaryJobCancelled';
  constructor() {
    super('The boundary file was no longer wanted.');
  }
}

export function runBoundaryJob<J extends BoundaryJob>(
  job: J,
  options: { signal?: AbortSignal } = {},
): Promise<ResultOf<J>> {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(new BoundaryJobCancelled());
  return new Promise((resolve, reject) => {
    const worker = startWorkerThread(
      workerEntry(import.meta.url, 'boundaryWorker.ts', 'boundaryWorker.js'),
      job,
    );
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      fn();
    };
    const onAbort = () => finish(() => reject(new BoundaryJobCancelled()));
    signal?.addEventListener('abort', onAbort, { once: true });
    const features: HeldFeature[] = [];
    worker.on('message', (m: FromBoundaryWorker) => {
      if (m.type === 'features') {
        features.push(...m.features);
        setImmediate(() => settled || worker.postMessage('next'));
      } else if (m.type === 'done')
        finish(() =>
          resolve((Array.isArray(m.result) ? m.result : { ...m.result, features }) as ResultOf<J>),
        );
      else if (m.type === 'failed')
        finish(() => reject(m.refused ? new BoundaryRefused(m.message) : new Error(m.message)));
    });
    worker.on('error', (error) => finish(() => reject(error)));
    worker.on('exit', (code) =>
      finish(() => reject(new Error(`The boundary thread stopped unexpectedly (exit code ${code}).`))),
    );
  });
}
