/**
 * The engine on the caller's own thread, behind the same EngineHandle as the worker. For the CLI
 * (a short-lived process with nothing else on its event loop) and for tests; hosts with a UI use
 * startEngine (engineClient.ts) so that SQLite never blocks them.
 */
import type { HostKind } from './context';
import { logFileOf } from './dataDir';
import { createEngine } from './engine';
import type { EngineHandle } from './engineHandle';
import { createEventHub } from './eventHub';
import { configureLogging, createLogger } from './log';
import { createKeytarSecretStore } from './secrets/keytarSecretStore';
import type { SecretStore } from './secrets/secretStore';

export type InProcessEngineOptions = {
  dataDir: string;
  host: HostKind;
  version: string;
  /** Default: the OS keychain. */
  secrets?: SecretStore;
  /** Where this process logs; default `<dataDir>/logs/blotter.log`; null leaves logging as it is. */
  logFile?: string | null;
};

export async function createInProcessEngine(options: InProcessEngineOptions): Promise<EngineHandle> {
  if (options.logFile !== null) configureLogging({ file: options.logFile ?? logFileOf(options.dataDir) });
  const events = createEventHub(createLogger('engine'));
  const engine = createEngine({
    dataDir: options.dataDir,
    host: options.host,
    version: options.version,
    secrets: options.secrets ?? createKeytarSecretStore(),
    emit: events.emit,
  });
  return {
    call: (name, input) => engine.dispatch(name, input),
    onEvent: events.subscribe,
    close: () => engine.close(),
  };
}
