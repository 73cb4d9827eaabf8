/**
 * The host's side of the engine worker: `startEngine` starts worker.ts in a worker_thread and
 * returns an EngineHandle that forwards calls (`{id, name, input}` → `{id, result}`) and events.
 * Imports nothing heavy (no SQLite, no keytar): those load in the worker, off the host's loop.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { BridgeError, Result } from '../../src-shared/contract';
import { serveHostFetch, type HostFetch } from './api/fetchBridge';
import type { HostKind } from './context';
import type { EngineHandle } from './engineHandle';
import { createEventHub } from './eventHub';
import { createLogger } from './log';
import type { EngineWorkerData, FromWorker, ToWorker } from './workerProtocol';
import { startWorkerThread } from './workerThreads';

export type StartEngineOptions = {
  dataDir: string;
  host: HostKind;
  version: string;
  /** The worker entry; default: engineWorker.js beside the bundled main, or worker.ts from source. */
  workerPath?: string;
  /** How long the engine may take to open its database and migrate. */
  startupTimeoutMs?: number;
  /** How long close() waits for the worker to finish before terminating it. */
  closeTimeoutMs?: number;
  /**
   * Demo mode only (src-main/demo): the simulator's synthetic key, answered in memory when no
   * keychain is reachable (secrets/demoKeySecretStore.ts). Never a customer's key.
   */
  demoKey?: string;
  /**
   * Performs the engine's HTTP requests in the host (api/fetchBridge.ts): the Electron main process
   * passes net.fetch (system proxy and certificates), which the worker thread cannot reach. Without
   * it the worker uses Node's fetch, through HTTPS_PROXY when set (api/nodeFetch.ts).
   */
  hostFetch?: HostFetch;
  /**
   * Answers carry typed arrays in their wire form (src-shared/wire.ts `toWireValue`): for the web
   * host, which sends every answer as JSON — the base64 work runs in the worker, and its bytes are
   * transferred to the host, which writes them to the socket without making them a string.
   */
  wireTypedArrays?: boolean;
};

/** Why the engine did not start, in words for the user; `name` is the worker's error name (e.g. DatabaseTooNewError). */
export class EngineStartError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

const log = createLogger('engine-client');

/** engineWorker.js next to this module when bundled (out/main), else worker.ts beside this source file. */
export function defaultWorkerPath(moduleUrl: string = import.meta.url): string {
  const here = fileURLToPath(moduleUrl);
  return path.join(path.dirname(here), here.endsWith('.ts') ? 'worker.ts' : 'engineWorker.js');
}

export function startEngine(options: StartEngineOptions): Promise<EngineHandle> {
  const workerPath = options.workerPath ?? defaultWorkerPath();
  const workerData: EngineWorkerData = {
    dataDir: options.dataDir,
    host: options.host,
    version: options.version,
    ...(options.demoKey ? { demoKey: options.demoKey } : {}),
    ...(options.hostFetch ? { hostFetch: true } : {}),
    ...(options.wireTypedArrays ? { wireTypedArrays: true } : {}),
  };
  const worker = startWorkerThread(workerPath, workerData);
  const events = createEventHub(log);
  const fetches = options.hostFetch
    ? serveHostFetch(options.hostFetch, (message) => worker.postMessage(message satisfies ToWorker))
    : null;
  const pending = new Map<number, (result: Result<unknown>) => void>();
  let nextId = 0;
  let state: 'starting' | 'ready' | 'closing' | 'stopped' = 'starting';
  let stoppedBecause: BridgeError = { code: 'internal', message: 'The engine is not running.' };
  const exit = new Promise<void>((resolve) => worker.once('exit', () => resolve()));

  function stop(reason: BridgeError): void {
    state = 'stopped';
    fetches?.close();
    stoppedBecause = reason;
    for (const resolve of pending.values()) resolve({ ok: false, error: reason });
    pending.clear();
  }

  const handle: EngineHandle = {
    call(name, input) {
      if (state !== 'ready') return Promise.resolve({ ok: false, error: stoppedBecause });
      const id = ++nextId;
      return new Promise((resolve) => {
        pending.set(id, resolve as (result: Result<unknown>) => void);
        try {
          worker.postMessage({ id, name, input } satisfies ToWorker);
        } catch (error) {
          pending.delete(id);
          resolve({
            ok: false,
            error: { code: 'bad_input', message: `Cannot send this input: ${String(error)}` },
          });
        }
      });
    },
    onEvent: events.subscribe,
    async close() {
      if (state === 'stopped' || state === 'closing') return exit;
      state = 'closing';
      stoppedBecause = { code: 'cancelled', message: 'Blotter is shutting down.' };
      worker.postMessage({ shutdown: true } satisfies ToWorker);
      const timeoutMs = options.closeTimeoutMs ?? 10_000;
      const timer = setTimeout(() => {
        log.warn('the engine did not close in time; stopping its thread', { timeoutMs });
        void worker.terminate();
      }, timeoutMs);
      await exit;
      clearTimeout(timer);
    },
  };

  return new Promise<EngineHandle>((resolve, reject) => {
    const startupTimeoutMs = options.startupTimeoutMs ?? 60_000;
    const startupTimer = setTimeout(() => {
      reject(new Error(`The engine did not start within ${startupTimeoutMs / 1000} s.`));
      stop({ code: 'internal', message: 'The engine did not start.' });
      void worker.terminate();
    }, startupTimeoutMs);
    const settle = (): void => clearTimeout(startupTimer);

    worker.on('message', (message: FromWorker) => {
      if ('result' in message) {
        pending.get(message.id)?.(message.result);
        pending.delete(message.id);
      } else if ('event' in message) {
        events.emit(message.event);
      } else if ('fetch' in message) {
        if (fetches) fetches.request(message.fetch);
        else {
          const error = { name: 'Error', message: 'This host performs no requests for the engine.' };
          worker.postMessage({ fetchReply: { id: message.fetch.id, error } } satisfies ToWorker);
        }
      } else if ('fetchAbort' in message) {
        fetches?.abort(message.fetchAbort.id);
      } else if ('ready' in message) {
        settle();
        state = 'ready';
        resolve(handle);
      } else if ('startupError' in message) {
        settle();
        stop({ code: 'internal', message: message.startupError.message });
        reject(new EngineStartError(message.startupError.name, message.startupError.message));
      }
    });
    worker.on('error', (error) => {
      log.error('the engine worker crashed', { error });
      if (state === 'starting') {
        settle();
        reject(new Error(`The engine could not start: ${error.message}`));
      }
      stop({
        code: 'internal',
        message: 'The engine stopped unexpectedly. Restart Blotter; details are in the log.',
      });
    });
    worker.on('exit', (code) => {
      if (state === 'starting') {
        settle();
        reject(new Error(`The engine stopped while starting (exit code ${code}).`));
      } else if (state === 'ready') {
        log.error('the engine worker exited unexpectedly', { code });
      }
      if (state !== 'stopped') {
        stop(
          state === 'closing'
            ? stoppedBecause
            : { code: 'internal', message: 'The engine stopped unexpectedly.' },
        );
      }
    });
  });
}
