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
import type { ResourceLimits, TransferListItem, Worker } from 'node:worker_threads';
import { startWorkerThread, workerEntry } from '../workerThreads';

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

export type ResultOf<J extends BoundaryJob> = J extends { kind: 'read' }
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

/** What the engine thread sends a boundary thread: a job, or "send the next part". */
export type ToBoundaryWorker = { type: 'job'; job: BoundaryJob } | { type: 'next' };

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

/** An idle thread is ended after this long unused (its heap may hold a big file's leftovers). */
const IDLE_MS = 60_000;

export class BoundaryThreads {
  private idle: { worker: Worker; timer: NodeJS.Timeout } | null = null;
  private closed = false;
  /** Threads started so far (a reused one counts once). */
  started = 0;

  constructor(
    private readonly o: {
      idleMs?: number;
      /** Tests: a thread's memory limits (one that runs out fails its job). */
      resourceLimits?: ResourceLimits;
    } = {},
  ) {}

  /** Runs `job` on an idle thread or a new one; `signal` ends it at once (the thread too). */
  run<J extends BoundaryJob>(job: J, options: { signal?: AbortSignal } = {}): Promise<ResultOf<J>> {
    const { signal } = options;
    if (signal?.aborted || this.closed) return Promise.reject(new BoundaryJobCancelled());
    const worker = this.take();
    worker.ref();
    return new Promise<ResultOf<J>>((resolve, reject) => {
      let settled = false;
      const items: unknown[] = [];
      const end = (outcome: () => void, reusable: boolean): void => {
        if (settled) return;
        settled = true;
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        if (reusable) this.putBack(worker);
        else void worker.terminate();
        outcome();
      };
      const onAbort = (): void => end(() => reject(new BoundaryJobCancelled()), false);
      const onError = (error: Error): void => end(() => reject(error), false);
      const onExit = (code: number): void =>
        end(() => reject(new Error(`The boundary thread stopped unexpectedly (exit code ${code}).`)), false);
      const onMessage = (m: FromBoundaryWorker): void => {
        if (m.type === 'part') {
          for (const item of m.items) items.push(item);
          setImmediate(() => settled || worker.postMessage({ type: 'next' } satisfies ToBoundaryWorker));
        } else if (m.type === 'done') {
          const result =
            job.kind === 'read'
              ? { ...(m.result as HeldFile), features: items }
              : job.kind === 'stored'
                ? items
                : m.result;
          end(() => resolve(result as ResultOf<J>), true);
        } else end(() => reject(m.refused ? new BoundaryRefused(m.message) : new Error(m.message)), true);
      };
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      // The points to count near are the engine's own copies, made for the job: moved, not copied.
      const moved: TransferListItem[] =
        job.kind === 'countNear' ? [job.lat.buffer as ArrayBuffer, job.lon.buffer as ArrayBuffer] : [];
      worker.postMessage({ type: 'job', job } satisfies ToBoundaryWorker, moved);
    });
  }

  /** Ends the idle thread; no job starts after (a running job ends by its own signal). */
  close(): void {
    this.closed = true;
    this.endIdle();
  }

  private take(): Worker {
    const idle = this.idle;
    if (idle) {
      clearTimeout(idle.timer);
      this.idle = null;
      return idle.worker;
    }
    this.started++;
    const worker = startWorkerThread(
      workerEntry(import.meta.url, 'boundaryWorker.ts', 'boundaryWorker.js'),
      null,
      [],
      this.o.resourceLimits,
    );
    // Idle, a thread's failure or exit only forgets it (a job's own listeners report it).
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      if (this.idle?.worker === worker) this.endIdle();
    });
    return worker;
  }

  private putBack(worker: Worker): void {
    if (this.closed || this.idle) {
      void worker.terminate();
      return;
    }
    worker.unref();
    const timer = setTimeout(() => this.endIdle(), this.o.idleMs ?? IDLE_MS);
    timer.unref();
    this.idle = { worker, timer };
  }

  private endIdle(): void {
    const idle = this.idle;
    if (!idle) return;
    this.idle = null;
    clearTimeout(idle.timer);
    void idle.worker.terminate();
  }
}

/** One job on a thread of its own, ended with it (a caller that keeps no BoundaryThreads). */
export function runBoundaryJob<J extends BoundaryJob>(
  job: J,
  options: { signal?: AbortSignal } = {},
): Promise<ResultOf<J>> {
  const threads = new BoundaryThreads();
  return threads.run(job, options).finally(() => threads.close());
}
