/**
 * Where the API key lives: the OS keychain, behind our own interface (keytar is archived; a
 * replacement is one new implementation). There is no plaintext fallback: when no keychain is
 * reachable, `probe()` says so and how to fix it, and the other methods throw
 * KeychainUnavailableError.
 */
import type { KeyStatus } from '../../../src-shared/secrets';

export type KeychainStatus = KeyStatus['keychain'];
export type KeychainProblem = Extract<KeychainStatus, { available: false }>;

export interface SecretStore {
  /** The secret stored for `account`, or null when there is none. */
  get(account: string): Promise<string | null>;
  /** Stores (or replaces) the secret for `account`. */
  set(account: string, secret: string): Promise<void>;
  /** Removes the secret for `account`; false when there was none. */
  delete(account: string): Promise<boolean>;
  /** Talks to the keychain and reports whether it answers, or what is wrong and how to fix it. */
  probe(): Promise<KeychainStatus>;
}

/** The keychain service name every Blotter secret is stored under. */
export const KEYCHAIN_SERVICE = 'Blotter';

/** The keychain account of a data folder's API key: each folder (office) has its own profile id. */
export const apiKeyAccount = (profileId: string): string => `api-key:${profileId}`;

export class KeychainUnavailableError extends Error {
  constructor(readonly status: KeychainProblem) {
    super(`The system keychain cannot be used: ${status.problem} ${status.fix}`);
    this.name = 'KeychainUnavailableError';
  }
}
