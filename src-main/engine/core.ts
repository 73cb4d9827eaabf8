/**
 * What exists before any service: the engine's database, settings, keychain, events and log
 * (`EngineCore`, built in engine.ts). A service takes the parts of it that it uses and imports
 * them from here, never from context.ts, which names the services: so the services and the
 * context never import each other.
 */
import type { CallOutput, EngineEvent } from '../../src-shared/contract';
import type { Logger } from './log';
import type { SecretStore } from './secrets/secretStore';
import type { Db } from './store/database';
import type { SettingsRepo } from './store/settingsRepo';

export type HostKind = CallOutput<'getAppInfo'>['host'];

export interface EngineCore {
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
