/**
 * A SecretStore in memory, for tests of code above the keychain (handlers, sync). Never used by a
 * host: Blotter has no plaintext fallback. `unavailable` simulates a machine without a keychain.
 */
import { KeychainUnavailableError, type KeychainProblem, type SecretStore } from './secretStore';

export type MemorySecretStore = SecretStore & {
  readonly entries: Map<string, string>;
  /** When set, every call behaves as on a machine whose keychain cannot be reached. */
  unavailable: KeychainProblem | null;
};

export function createMemorySecretStore(): MemorySecretStore {
  const entries = new Map<string, string>();
  const store: MemorySecretStore = {
    entries,
    unavailable: null,
    async get(account) {
      check();
      return entries.get(account) ?? null;
    },
    async set(account, secret) {
      check();
      entries.set(account, secret);
    },
    async delete(account) {
      check();
      return entries.delete(account);
    },
    async probe() {
      return store.unavailable ?? { available: true, backend: 'memory (tests only)' };
    },
  };
  function check(): void {
    if (store.unavailable) throw new KeychainUnavailableError(store.unavailable);
  }
  return store;
}
