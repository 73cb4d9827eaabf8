/**
 * The engine on the caller's own thread, behind the same EngineHandle as the worker. For the CLI
 * (a short-lived process with nothing else on its event loop) and for tests; hosts with a UI use
 * startEngine (engineClient.ts) so that SQLite never blocks them. What runs in the background is
 * the host's defaults (engine.ts HOST_DEFAULTS: for 'cli' no scheduler and no snapshot preload;
 * the keychain is read only by a call that needs the key), unless the options here say otherwise.
 */
import type { HostKind } from './context';
import { logFileOf } from './dataDir';
import { createEngine, type EngineOptions } from './engine';
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
} & Pick<EngineOptions, 'fetch' | 'scheduler' | 'warmQueries'>;

export async function createInProcessEngine(options: InProcessEngineOptions): Promise<EngineHandle> {
  if (options.logFile !== null) configureLogging({ file: options.logFile ?? logFileOf(options.dataDir) });
  const events = createEventHub(createLogger('engine'));
  const engine = createEngine({
    dataDir: options.dataDir,
    host: options.host,
    version: options.version,
    secrets: options.secrets ?? createKeytarSecretStore(),
    emit: events.emit,
    fetch: options.fetch,
    scheduler: options.scheduler,
    warmQueries: options.warmQueries,
  });
  return {
    call: (name, input) => engine.dispatch(name, input),
    onEvent: events.subscribe,
    close: () => engine.close(),
  };
}
