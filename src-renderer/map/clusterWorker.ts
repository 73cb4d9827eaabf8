/// <reference lib="webworker" />
/** The cluster worker: the cluster index and the heat grid off the main thread (see clusterWorkerCore.ts). */
import type { ToWorker } from './clusterProtocol';
import { createClusterWorker } from './clusterWorkerCore';

const core = createClusterWorker();
const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (event: MessageEvent<ToWorker>) => {
  const { message, transfer } = core.handle(event.data);
  scope.postMessage(message, transfer);
};
