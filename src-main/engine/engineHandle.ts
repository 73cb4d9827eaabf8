/**
 * What a host (Electron main, web host, CLI) holds to talk to the engine. The engine itself runs
 * in a worker thread (see engineClient.ts); hosts only forward calls and events.
 */
import type { CallName, CallOutput, EngineEvent, Result } from '../../src-shared/contract';

export interface EngineHandle {
  /** Runs one contract call. `input` must already be parsed with the contract's schema. */
  call<K extends CallName>(name: K, input: unknown): Promise<Result<CallOutput<K>>>;
  /** Subscribes to engine events; returns the unsubscribe function. */
  onEvent(listener: (event: EngineEvent) => void): () => void;
  close(): Promise<void>;
}
