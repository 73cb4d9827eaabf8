/**
 * What every handler gets: the engine's resources, as one plain object built in engine.ts. To give
 * handlers a new service (the sync scheduler, say), add a field here and build it in createContext
 * (engine.ts); register its cleanup with `onClose`.
 */
import type { CallOutput, EngineEvent } from '../../src-shared/contract';
import type { Logger } from './log';
import type { SecretStore } from './secrets/secretStore';
import type { Db } from './store/database';
import type { SettingsRepo } from './store/settingsRepo';

export type HostKind = CallOutput<'getAppInfo'>['host'];

export interface EngineContext {
  readonly db: Db;
  readonly dataDir: string;
  readonly host: HostKind;
  readonly version: string;
  readonly settings: SettingsRepo;
  readonly secrets: SecretStore;
  /** The keychain account of this data folder's API key: `api-key:<profileId>`. */
  readonly keyAccount: string;
  /** Pushes an event to every host listener (and on to the renderer). */
  readonly emit: (event: EngineEvent) => void;
  readonly log: Logger;
  /** Registers cleanup for engine close: run in reverse order, after calls in flight, before the DB closes. */
  readonly onClose: (dispose: () => void | Promise<void>) => void;
}
