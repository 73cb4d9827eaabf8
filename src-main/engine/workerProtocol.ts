/** The messages between a host's EngineHandle (engineClient.ts) and the engine worker (worker.ts). */
import type { EngineEvent, Result } from '../../src-shared/contract';
import type { FetchAbortMessage, FetchReplyMessage, FetchRequestMessage } from './api/fetchBridge';
import type { HostKind } from './context';

export type EngineWorkerData = {
  dataDir: string;
  host: HostKind;
  version: string;
  /** Demo mode on a computer without a keychain only (secrets/demoKeySecretStore.ts). */
  demoKey?: string;
  /** The host performs the engine's HTTP requests (api/fetchBridge.ts): Electron's net.fetch. */
  hostFetch?: boolean;
  /**
   * Answers with typed arrays already in their wire form (src-shared/wire.ts `toWireValue`), the
   * base64 as bytes transferred with the message: the web host writes them to its socket as they
   * are, so neither the base64 work nor a string of it is ever on the host's event loop.
   */
  wireTypedArrays?: boolean;
};

export type ToWorker = { id: number; name: string; input: unknown } | { shutdown: true } | FetchReplyMessage;

export type FromWorker =
  | { ready: true }
  /** The engine could not start (e.g. DatabaseTooNewError); `message` is for the user. */
  | { startupError: { name: string; message: string } }
  | { id: number; result: Result<unknown> }
  | { event: EngineEvent }
  | { closed: true }
  | FetchRequestMessage
  | FetchAbortMessage;
