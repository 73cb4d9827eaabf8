/**
 * The import's helper thread (built as out/main/mergeWorker.js; started by mergeThread.ts), one task
 * per thread: `weigh` — the preview's account of the staged rows against the archive (weigh.ts, on
 * read-only connections) — or `merge` — the run's one transaction (merge.ts) on a second writer
 * connection of its own (store/writeTurns.ts: BEGIN IMMEDIATE, busy timeout), posting its progress.
 * Messages: `started` first (so the engine can tell a thread that never ran from a failed task),
 * then `progress`…, then `done` or `failed`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { EngineError } from '../errors';
import { HELPER_NICE, runBelowHost } from '../threadPriority';
import { openSecondWriter } from '../store/writeTurns';
import { mergeRows, phases, type MergeCounts, type MergeInput } from './merge';
import { weighStaged, type WeighInput, type Weighed } from './weigh';
import { allDistinct } from './distinct';
import { addReference, placeUnplaced, type PlaceOutcome } from './places/unplaced';
import { ReferenceProblem } from './places/references';

export type MergeJob = Omit<MergeInput, 'onProgress'>;
export type MergeWorkerData =
  | { task: 'weigh'; input: WeighInput }
  | { task: 'merge'; dbFile: string; input: MergeJob }
  /** The offline locator over the archive, placing the unplaced rows (places/unplaced.ts). */
  | { task: 'place'; dbFile: string; now: number }
  /** A reference file read and kept in the archive (places/unplaced.ts `addReference`). */
  | { task: 'reference'; dbFile: string; file: string; now: number; name: string }
  /** Whether each list of hashes is without repeats (distinct.ts). */
  | { task: 'distinct'; lists: Float64Array[] };
/**
 * Set to 1 by the engine thread to cancel a task (mergeThread.ts): a long SQLite statement of the
 * merge stops at its next check (`watchCancel`), where terminating the thread would wait for it.
 */
export type CancelFlag = { cancelFlag?: Int32Array };
export type Merged = { counts: MergeCounts; phases: typeof phases };
export type Placed = PlaceOutcome & { cdids: number[] };
export type ReferenceAdded = ReturnType<typeof addReference>;
/** A task's failure, rebuilt on the engine thread as it was thrown (its SQLite code kept). */
export type TaskFailure = { message: string; code?: string; kind?: 'engine' | 'reference' };
export type FromMergeWorker =
  | { type: 'started' }
  | { type: 'progress'; fraction: number }
  | { type: 'done'; value: Weighed | Merged | Placed | ReferenceAdded | boolean[] }
  | { type: 'failed'; failure: TaskFailure };

const port = parentPort;
if (!port) throw new Error('mergeWorker.ts runs as a worker thread');
const post = (m: FromMergeWorker) => port.postMessage(m);

async function run(data: MergeWorkerData): Promise<Weighed | Merged | Placed | ReferenceAdded | boolean[]> {
  if (data.task === 'weigh') return weighStaged(data.input);
  if (data.task === 'distinct') return data.lists.map(allDistinct);
  const db = openSecondWriter(data.dbFile);
  const { cancelFlag } = data as CancelFlag;
  if (cancelFlag) watchCancel(db, cancelFlag);
  try {
    if (data.task === 'place') return placeUnplaced(db, data.now);
    if (data.task === 'reference') return addReference(db, data.file, data.now, data.name);
    const counts = mergeRows(db, {
      ...data.input,
      onProgress: (fraction) => post({ type: 'progress', fraction }),
    });
    return { counts, phases: { ...phases } };
  } finally {
    db.close();
  }
}

/**
 * On this connection only: every 4,096th incident inserted checks the flag, and a set flag aborts
 * the statement (and so the transaction). A temp trigger: nothing in the archive's schema changes.
 */
function watchCancel(db: ReturnType<typeof openSecondWriter>, flag: Int32Array): void {
  db.function('import_cancelled', { deterministic: false }, () => Atomics.load(flag, 0));
  db.exec(`CREATE TEMP TRIGGER import_cancel_check AFTER INSERT ON main.incidents
    WHEN new.cdid % 4096 = 0 BEGIN SELECT RAISE(ABORT, 'Import cancelled') WHERE import_cancelled(); END`);
}

// Below the engine thread: when both want a core, the engine's calls are answered first.
runBelowHost(HELPER_NICE);
post({ type: 'started' });
run(workerData as MergeWorkerData).then(
  (value) => post({ type: 'done', value }),
  (error: unknown) => {
    const e = error as { message?: unknown; code?: unknown };
    post({
      type: 'failed',
      failure: {
        message: typeof e?.message === 'string' ? e.message : String(error),
        ...(typeof e?.code === 'string' ? { code: e.code } : {}),
        ...(error instanceof EngineError ? { kind: 'engine' as const } : {}),
        ...(error instanceof ReferenceProblem ? { kind: 'reference' as const } : {}),
      },
    });
  },
);
