/**
 * Runs a boundary job on a helper thread (boundaryWorker.ts) so the engine thread keeps answering
 * while a file of 2M corners is read and checked (seconds), its geometry written out as the
 * store's JSON, a preview's areas simplified, or a big kept layer's geometry parsed (to draw it, or
 * to count near its features): one thread per job, ended when it answers or at
 * once on its AbortSignal (the engine closing). Long answers come in parts, one per turn of the
 * engine's event loop. A refusal — a file that is not a boundary file, an invalid feature, a
 * feature that makes no area — comes back as a BoundaryRefused with the reader's words. A big
 * preview kept as a layer is inserted there too, on a second writer connection (`keep`); its
 * transaction rolls back if the thread fails or is ended.
 */
import type { NearCounts } from './countNear';
import type { AreaShapeOf } from './featureAreas';
import type { RegionParts } from '../../../src-shared/geo';
import type { HeldFeature, HeldFile, PackedGeometry } from './heldFile';
import type { PackedLayer } from './layerReads';
import type { LayerRecord } from './layerStore';
import { settleOnce, startWorkerThread, workerEntry } from '../workerThreads';

export type BoundaryJob =
  | { kind: 'read'; file: string; name: string }
  /** Each geometry as the JSON text reference_features.geometry stores. */
  | { kind: 'stored'; geometries: PackedGeometry[] }
  | {
      kind: 'areas';
      features: Pick<HeldFeature, 'index' | 'properties' | 'geometry'>[];
      nameField: string | null;
    }
  /**
   * A preview kept as a layer: its geometry written as the store's JSON and the layer inserted in
   * one transaction on the thread's own writer connection (the caller holds the write turn).
   */
  | {
      kind: 'keep';
      dbFile: string;
      file: Pick<HeldFile, 'format' | 'crs' | 'fields' | 'skipped'>;
      features: HeldFeature[];
      input: { name: string; nameField: string | null; sourceName: string };
      now: number;
    }
  /** A kept layer's features (geometry packed, its arrays moved), read on the thread's own connection. */
  | { kind: 'layerFeatures'; dbFile: string; layerId: number }
  /** One kept feature's region parts, its edges indexed (featureRegion.ts). */
  | { kind: 'featureRegion'; dbFile: string; featureId: number; metres: number }
  /** Counts near a kept layer's features of the points given (the match set's columns). */
  | {
      kind: 'countNear';
      dbFile: string;
      layerId: number;
      lat: Float64Array;
      lon: Float64Array;
      metres: number;
    };

type ResultOf<J extends BoundaryJob> = J extends { kind: 'read' }
  ? HeldFile
  : J extends { kind: 'stored' }
    ? string[]
    : J extends { kind: 'layerFeatures' }
      ? PackedLayer
      : J extends { kind: 'countNear' }
        ? NearCounts
        : J extends { kind: 'featureRegion' }
          ? RegionParts | null
          : J extends { kind: 'keep' }
            ? LayerRecord
            : AreaShapeOf[];

export type FromBoundaryWorker =
  /** Part of a long answer (a read file's features, the stored texts), in order, before `done`. */
  | { type: 'part'; items: unknown[] }
  | {
      type: 'done';
      result: HeldFile | AreaShapeOf[] | NearCounts | LayerRecord | PackedLayer | RegionParts | null;
    }
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
    // The points to count near are the engine's own copies, made for the job: moved, not copied.
    const moved = job.kind === 'countNear' ? [job.lat.buffer, job.lon.buffer] : [];
    const worker = startWorkerThread(
      workerEntry(import.meta.url, 'boundaryWorker.ts', 'boundaryWorker.js'),
      job,
      moved as ArrayBuffer[],
    );
    const end = settleOnce(worker, reject, {
      stopped: (code) => new Error(`The boundary thread stopped unexpectedly (exit code ${code}).`),
      ...(signal ? { signal } : {}),
      cancelled: () => new BoundaryJobCancelled(),
    });
    const finish = end.settle;
    const items: unknown[] = [];
    worker.on('message', (m: FromBoundaryWorker) => {
      if (m.type === 'part') {
        for (const item of m.items) items.push(item);
        setImmediate(() => end.settled || worker.postMessage('next'));
      } else if (m.type === 'done') {
        const result =
          job.kind === 'read'
            ? { ...(m.result as HeldFile), features: items }
            : job.kind === 'stored'
              ? items
              : m.result;
        finish(() => resolve(result as ResultOf<J>));
      } else finish(() => reject(m.refused ? new BoundaryRefused(m.message) : new Error(m.message)));
    });
  });
}
