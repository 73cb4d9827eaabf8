/**
 * SecretStore on the OS keychain through keytar (Secret Service on Linux, Keychain on macOS,
 * Credential Manager on Windows). keytar is loaded on first use, so a missing libsecret or D-Bus
 * session becomes a `{ available: false, problem, fix }` answer instead of a crash at startup.
 * Every call has a timeout: a locked gnome-keyring can wait forever for an unlock prompt.
 */
import type * as KeytarModule from 'keytar';
import { describeKeychainFailure, keychainBackend, type KeychainFailure } from './keychainHelp';
import { KEYCHAIN_SERVICE, KeychainUnavailableError, type SecretStore } from './secretStore';

type Keytar = Pick<typeof KeytarModule, 'getPassword' | 'setPassword' | 'deletePassword'>;

/**
 * The account probe() looks up: none is stored under it. A lookup of one account reaches the
 * keychain as any call does, and libsecret answers "none" for an item being written meanwhile;
 * keytar's findCredentials (every item of the service) instead crashes the whole process
 * (strdup of a NULL secret) when another process writes one of them meanwhile — two Blotters, or
 * a demo starting next to another host.
 */
export const PROBE_ACCOUNT = 'blotter-keychain-probe';

export type KeytarStoreOptions = {
  /** Keychain service name; tests may isolate themselves with another. */
  service?: string;
  platform?: NodeJS.Platform;
  /** How long probe() waits for the keychain (gnome-keyring can hang when locked). */
  probeTimeoutMs?: number;
  /** How long get/set/delete wait: long enough for a person to answer an unlock prompt. */
  callTimeoutMs?: number;
  /** Loads keytar; replaceable in tests. */
  load?: () => Promise<Keytar>;
};

class TimeoutError extends Error {}

export function createKeytarSecretStore(options: KeytarStoreOptions = {}): SecretStore {
  const service = options.service ?? KEYCHAIN_SERVICE;
  const platform = options.platform ?? process.platform;
  const probeTimeoutMs = options.probeTimeoutMs ?? 3_000;
  const callTimeoutMs = options.callTimeoutMs ?? 60_000;
  const load = options.load ?? loadKeytar;
  let loaded: Promise<Keytar> | undefined;

  const unavailable = (failure: KeychainFailure) => describeKeychainFailure(failure, platform);

  /** Runs one keychain call; any failure to reach the keychain becomes KeychainUnavailableError. */
  async function use<T>(timeoutMs: number, run: (keytar: Keytar) => Promise<T>): Promise<T> {
    let keytar: Keytar;
    try {
      keytar = await (loaded ??= load());
    } catch (error) {
      throw new KeychainUnavailableError(unavailable({ kind: 'load', error }));
    }
    try {
      return await withTimeout(run(keytar), timeoutMs);
    } catch (error) {
      const failure: KeychainFailure =
        error instanceof TimeoutError
          ? { kind: 'timeout', seconds: timeoutMs / 1000 }
          : { kind: 'call', error };
      throw new KeychainUnavailableError(unavailable(failure));
    }
  }

  return {
    get: (account) => use(callTimeoutMs, (k) => k.getPassword(service, account)),
    set: (account, secret) => use(callTimeoutMs, (k) => k.setPassword(service, account, secret)),
    delete: (account) => use(callTimeoutMs, (k) => k.deletePassword(service, account)),
    async probe() {
      try {
        await use(probeTimeoutMs, (k) => k.getPassword(service, PROBE_ACCOUNT));
        return { available: true, backend: keychainBackend(platform) };
      } catch (error) {
        if (error instanceof KeychainUnavailableError) return error.status;
        throw error;
      }
    },
  };
}

async function loadKeytar(): Promise<Keytar> {
  const mod = (await import('keytar')) as Keytar & { default?: Keytar };
  return mod.default ?? mod;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new TimeoutError()), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
