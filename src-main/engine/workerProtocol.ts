/** The messages between a host's EngineHandle (engineClient.ts) and the engine worker (worker.ts). */
import type { EngineEvent, Result } from '../../src-shared/contract';
import type { HostKind } from './context';

export type EngineWorkerData = { dataDir: string; host: HostKind; version: string };

export type ToWorker = { id: number; name: string; input: unknown } | { shutdown: true };

export type FromWorker =
  | { ready: true }
  /** The engine could not start (e.g. DatabaseTooNewError); `message` is for the user. */
  | { startupError: { name: string; message: string } }
  | { id: number; result: Result<unknown> }
  | { event: EngineEvent }
  | { closed: true };
