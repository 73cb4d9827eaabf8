/** A stand-in engine worker that starts, then crashes on its first call (engineClient tests). */
import { parentPort } from 'node:worker_threads';
import type { FromWorker } from '../workerProtocol';

const port = parentPort!;
port.on('message', () => {
  throw new Error('simulated crash in the engine worker');
});
port.postMessage({ ready: true } satisfies FromWorker);
