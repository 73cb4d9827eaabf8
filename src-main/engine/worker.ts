/**
 * The engine worker thread (built as out/main/engineWorker.js): owns the SQLite connection and the
 * keychain access, so no query ever runs on a host's event loop. Started by startEngine
 * (engineClient.ts); speaks workerProtocol.ts.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { createWorkerFetch, type WorkerFetch } from './api/fetchBridge';
import { ensureDir, logFileOf } from './dataDir';
import { createEngine, type Engine } from './engine';
import { configureLogging, createLogger, redact } from './log';
import { withInMemoryDemoKey } from './secrets/demoKeySecretStore';
import { createKeytarSecretStore } from './secrets/keytarSecretStore';
import { runBelowHost } from './threadPriority';
import type { EngineWorkerData, FromWorker, ToWorker } from './workerProtocol';
import { toWireValueInSlices } from '../../src-shared/wire';
import { yieldToEventLoop } from './eventLoop';

const log = createLogger('worker');

function main(port: MessagePort, data: EngineWorkerData): void {
  const post = (message: FromWorker, transfer?: ArrayBuffer[]): void => port.postMessage(message, transfer);
  let engine: Engine;
  let bridge: WorkerFetch | null = null;
  if (process.env.BLOTTER_ENGINE_NICE !== '0') runBelowHost(); // the host's loop first: threadPriority.ts
  try {
    ensureDir(data.dataDir); // before logging into it: a bad folder gets one clear message
    configureLogging({ file: logFileOf(data.dataDir) });
    // The host performs HTTP (Electron: net.fetch, the system proxy): API requests cross the port.
    if (data.hostFetch) bridge = createWorkerFetch(post);
    const { demoKey, hostFetch: _hostFetch, wireTypedArrays: _wire, ...options } = data;
    const keychain = createKeytarSecretStore();
    const secrets = demoKey ? withInMemoryDemoKey(keychain, demoKey) : keychain;
    engine = createEngine({ ...options, secrets, fetch: bridge?.fetch, emit: (event) => post({ event }) });
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    log.error('the engine could not start', { error });
    post({ startupError: { name, message: redact(message) } });
    port.close();
    return;
  }

  port.on('message', (message: ToWorker) => {
    if ('fetchReply' in message) return bridge?.receive(message.fetchReply);
    if ('shutdown' in message) {
      void engine.close().then(() => {
        bridge?.close();
        post({ closed: true });
        port.close();
      });
      return;
    }
    void engine.dispatch(message.name, message.input).then(async (result) => {
      try {
        if (!data.wireTypedArrays) return post({ id: message.id, result });
        // The web host writes the base64 bytes to its socket as they are: moved, not copied. Big
        // arrays' base64 is written in slices, calls answered between them.
        const transfer: ArrayBuffer[] = [];
        const wire = await toWireValueInSlices(result, transfer, yieldToEventLoop);
        post({ id: message.id, result: wire as typeof result }, transfer);
      } catch (error) {
        log.error('could not send a result', { call: message.name, error });
        const failure = {
          code: 'internal' as const,
          message: `The answer to ${message.name} could not be sent.`,
        };
        post({ id: message.id, result: { ok: false, error: failure } });
      }
    });
  });
  log.info('engine started', { dataDir: data.dataDir, host: data.host, version: data.version });
  post({ ready: true });
}

if (!parentPort) throw new Error('worker.ts is the engine worker thread: start it with startEngine().');
main(parentPort, workerData as EngineWorkerData);
