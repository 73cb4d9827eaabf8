/**
 * A thread that packs a bulk import's R*Tree (rtreeBulk.ts `packRtree`) while the engine thread
 * writes the rows and rebuilds the text index (built as out/main/rtreePackWorker.js; see
 * rtreePackThread.ts). Posts the packed tree on its port, then raises the shared flag the engine
 * thread waits on inside the import's transaction.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { inCdidOrder, packRtree, type PackedRtree, type Points } from './rtreeBulk';

export type RtreePackWorkerData = {
  points: Points;
  nodeSize: number;
  port: MessagePort;
  /** Int32 on shared memory: 0 while packing, 1 when the answer is on the port. */
  flag: Int32Array;
};
export type RtreePackResult = { ok: true; tree: PackedRtree } | { ok: false; message: string };

const { points, nodeSize, port, flag } = workerData as RtreePackWorkerData;
try {
  const tree = packRtree(inCdidOrder(points), points.size, nodeSize);
  port.postMessage({ ok: true, tree } satisfies RtreePackResult, [
    tree.blobs.buffer as ArrayBuffer,
    tree.nodenos.buffer as ArrayBuffer,
    tree.parents.buffer as ArrayBuffer,
    tree.ids.buffer as ArrayBuffer,
    tree.leafOf.buffer as ArrayBuffer,
    tree.boxes.buffer as ArrayBuffer,
  ]);
} catch (error) {
  port.postMessage({
    ok: false,
    message: error instanceof Error ? error.message : String(error),
  } satisfies RtreePackResult);
} finally {
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
  port.close();
}
