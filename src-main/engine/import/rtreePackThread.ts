/**
 * Packs a bulk import's R*Tree on another thread while this one writes the rows (rtreePackWorker.ts).
 * The merge runs in one synchronous transaction, so the packed tree is taken with a blocking wait
 * (Atomics.wait on a shared flag, then the port read directly) rather than an event. Anything going
 * wrong — no thread, an error, too long a wait — answers null and the merge packs in this thread.
 */
import { existsSync } from 'node:fs';
import { MessageChannel, receiveMessageOnPort, type Worker } from 'node:worker_threads';
import { createLogger } from '../log';
import { startWorkerThread, workerEntry } from '../workerThreads';
import type { PackedRtree, Points } from './rtreeBulk';
import type { RtreePackResult, RtreePackWorkerData } from './rtreePackWorker';

const log = createLogger('import');

export type PackingThread = {
  /** The packed tree, waiting for it at most `timeoutMs` (default: long enough for its size); null when it failed. Once only. */
  take(timeoutMs?: number): PackedRtree | null;
  /** Stops the thread (its result is not needed). */
  cancel(): void;
};

export function packRtreeInBackground(points: Points, nodeSize: number): PackingThread {
  const { port1, port2 } = new MessageChannel();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  let worker: Worker | null = null;
  try {
    // A copy of the positions: the caller keeps its own.
    const copy: Points = {
      cdid: points.cdid.slice(0, points.size),
      lat: points.lat.slice(0, points.size),
      lon: points.lon.slice(0, points.size),
      size: points.size,
    };
    const entry = workerEntry(import.meta.url, 'rtreePackWorker.ts', 'rtreePackWorker.js');
    if (!existsSync(entry)) throw new Error(`${entry} is missing`);
    worker = startWorkerThread(
      entry,
      { points: copy, nodeSize, port: port2, flag } satisfies RtreePackWorkerData,
      [
        port2,
        copy.cdid.buffer as ArrayBuffer,
        copy.lat.buffer as ArrayBuffer,
        copy.lon.buffer as ArrayBuffer,
      ],
    );
    worker.on('error', (error) => {
      log.warn('the R*Tree packing thread failed', { error });
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    });
  } catch (error) {
    log.warn('no R*Tree packing thread', { error });
    Atomics.store(flag, 0, 1);
  }
  const stop = () => {
    port1.close();
    void worker?.terminate();
  };
  return {
    take(timeoutMs = 15_000 + points.size / 50) {
      Atomics.wait(flag, 0, 0, timeoutMs);
      const answer = receiveMessageOnPort(port1)?.message as RtreePackResult | undefined;
      stop();
      if (answer?.ok) return answer.tree;
      if (answer) log.warn('the R*Tree packing thread failed', { message: answer.message });
      return null;
    },
    cancel: stop,
  };
}
