/**
 * What a run is given and what it answers (runner.ts), and the surface strategy it drives — apart
 * from the runner so that the strategies (liveStrategy.ts, cursorStrategy.ts), runWatch.ts and
 * surfaceSelect.ts name them without importing the runner.
 */
import type { ErrorCode } from '../../../src-shared/contract';
import type { Shape } from '../../../src-shared/geo';
import { ApiError } from '../api/apiError';
import type { Logger } from '../log';
import type { Db } from '../store/database';
import { localFailureOf } from '../store/localFailure';
import type { AreaRecord, AreaStore } from '../areas/areaStore';
import type { DescriptionSink } from './details';
import type { Finalized } from './finalize';
import type { IncidentWriter } from './incidentWriter';
import type { JobRow, JobStore, RunRow, RunSurface } from './jobStore';
import type { Depth, SyncLimits } from './planner';
import type { SyncProgress } from './progress';
import type { Requester } from './requester';
import type { RunWatch } from './runWatch';
import type { ProfileBook } from './serverProfile';

/** The surface a run asks: the live search, v1's cursor pages, or v1's history. */
export type Surface = RunSurface;

export type RunnerDeps = {
  db: Db;
  /** The run's requester, built with the run's watch (`watch.events`) as its listeners. */
  requester: Requester;
  /** Shows the run's retries and rate waits and logs its failed attempts (runWatch.ts). */
  watch: RunWatch;
  areas: AreaStore;
  jobs: JobStore;
  writer: IncidentWriter;
  baseUrl: string;
  /** What is known of the server at `baseUrl` (serverProfile.ts). */
  profile: ProfileBook;
  limits: SyncLimits;
  now: () => number;
  emit: (p: SyncProgress) => void;
  log: Logger;
  /** After a commit that added, changed or removed incidents of the area (the engine's incidentsChanged). */
  onCommit?: (areaId: number) => void;
  /** Inside each page's transaction (the engine's alerts). */
  onPageCommitted?: PageCommitted;
  /** Where the run's commits go; absent: this folder's file, as they are written. */
  sink?: CommitSink;
  /** Where `details` descriptions go (details.ts); absent: this folder's file. */
  descriptions?: DescriptionSink;
  /**
   * Runs a write to this folder's file outside the sink (the run's start and end, a failed
   * request's log row) in the engine's write turn (store/writeTurns.ts): during an import's merge
   * it waits on the event loop. Absent: at once.
   */
  inTurn?: InTurn;
};

/** Runs a synchronous write in its turn (store/writeTurns.ts `take`). */
export type InTurn = <T>(write: () => T) => Promise<T>;

/** `write` now, as a promise: a write with no turns to wait for. */
export const atOnce: InTurn = (write) => {
  try {
    return Promise.resolve(write());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
};

/**
 * Where a run's commits (a page, the settling of a job, the run's end) go. Standalone: run at once
 * against this folder's file. Office mode (engine/office/leader.ts): to PostgreSQL in one fenced
 * transaction, then back into this folder through the replica's pull.
 */
export type CommitSink = { commit<T>(runId: number, write: () => T): Promise<T> };

/** What one page's commit wrote: its area, run and time, and the incidents in it. */
export type PageWritten = {
  areaId: number;
  runId: number;
  /** The commit's time: the first_seen of the incidents it inserted. */
  now: number;
  /** The cdids the page wrote (new, amended and seen again alike). */
  cdids: readonly number[];
};

/**
 * Hears each page of current incidents inside its transaction (`tx`, the folder's file), before the
 * commit: what it writes lands with the page or not at all. The engine wires the alerts to it
 * (services.ts); a history backfill's pages are not news and are not heard.
 */
export type PageCommitted = (tx: Db, written: PageWritten) => void;

/** What applying one page needs, live or v1 (applyPage.ts, surfaceApply.ts): the page's transaction
 * runs on `db`, writes through `writer` and `jobs`, and is heard by `onPageCommitted`. */
export type PageApplyBase = {
  db: Db;
  jobs: JobStore;
  writer: IncidentWriter;
  areaId: number;
  shape: Shape;
  runId: number;
  now: number;
  /** Hears the page inside its transaction (the engine's alerts); absent for a history backfill's. */
  onPageCommitted?: PageCommitted;
};

/** A run's commit: `write` through the run's sink (or at once). */
export type Commit = <T>(write: () => T) => Promise<T>;

export type RunOptions = {
  depth?: Depth;
  details?: boolean;
  signal?: AbortSignal;
  concurrency?: number;
  /** The opt-in 36-month history backfill on v1 (cursorStrategy.ts) instead of a sync. */
  history?: boolean;
};

/** Why a run stopped: the service's answer (ApiError), a local failure, or a fault of Blotter's own. */
export type RunError = { code: ErrorCode; message: string; fatal: boolean };

export type RunSummary = {
  areaId: number;
  runId: number;
  kind: RunRow['kind'];
  state: 'done' | 'failed' | 'cancelled';
  resumed: boolean;
  new: number;
  updated: number;
  removed: number;
  lowerBound: number | null;
  /** ceil(N / 500), N = the area's incidents that occurred after the run's since (fairBound.ts). */
  fairLowerBound?: number | null;
  /** Spots that could not be proven complete, in plain words. */
  incomplete: string[];
  error?: RunError;
  /** Office mode: the desktop that led this run when it was not this one. */
  ledBy?: string;
};

/** A run planned or resumed (one transaction: a whole plan or none). */
export type PreparedRun = { run: RunRow; resumed: boolean; deep: boolean };

/** What a step did with its job: settled it (or stopped with the run), or handed the run to v1. */
export type StepOutcome = 'settled' | 'hand-off';

/** How a run ended on its surface: what finalize found (fairLowerBound: the live surface's). */
export type Finished = { removed: number; incomplete: string[]; fairLowerBound?: number | null };

/** What the runner hands a strategy for the run it prepared. */
export type RunHooks = {
  run: RunRow;
  deep: boolean;
  commit: Commit;
  /** Where a page is written (applyPage.ts, surfaceApply.ts): the folder, the area, the run. */
  writes: {
    db: Db;
    jobs: JobStore;
    writer: IncidentWriter;
    areaId: number;
    shape: Shape;
    runId: number;
    onPageCommitted?: PageCommitted;
  };
  /** The run's end through its commit (finalize.ts: removals, lower bounds, the run's and area's state). */
  finalize(): Promise<Finalized>;
  /** A page was written: its counts and how long the request took (progress, incidentsChanged). */
  paged(counts: { new: number; updated: number }, durationMs: number): void;
};

/**
 * One surface's part of a run (runner.ts drives it): plan or resume the run, work one pending job
 * to its end, finish the run. The live strategy holds the tile loop, the cursor strategy v1's and
 * the history's chains.
 */
export type SurfaceStrategy = {
  readonly surface: Surface;
  /** Requests in flight at once. */
  readonly concurrency: number;
  prepare(): PreparedRun;
  start(hooks: RunHooks): void;
  step(job: JobRow, signal: AbortSignal): Promise<StepOutcome>;
  finish(): Promise<Finished>;
  /** What the surface learns from the service's answer that stopped the run (v1 gone, history refused). */
  failed?(error: ApiError): Promise<void>;
};

export type StrategyFactory = (deps: RunnerDeps, area: AreaRecord, opts: RunOptions) => SurfaceStrategy;

/** An error that names its own RunError (office mode: the lease was lost, PostgreSQL is unreachable). */
export function runErrorOf(error: unknown): RunError | null {
  const r = (error as { runError?: RunError } | null)?.runError;
  return r && typeof r.code === 'string' ? r : null;
}

export function ownFault(): RunError {
  return {
    code: 'internal',
    message:
      'The sync stopped on a problem inside Blotter; the details are in the log. Syncing again resumes where it stopped.',
    fatal: true,
  };
}

/**
 * What stopped a run, as the run reports it: the service's answer (ApiError) as it is; a local
 * failure (disk full, file locked or damaged) named as local; anything else Blotter's own fault —
 * never blamed on the service.
 */
export function runErrorFrom(error: unknown, dbName: string): RunError {
  return error instanceof ApiError
    ? error
    : (runErrorOf(error) ?? localFailureOf(error, dbName) ?? ownFault());
}
