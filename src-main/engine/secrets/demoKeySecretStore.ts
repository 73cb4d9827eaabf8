/**
 * The one exception to "the key lives only in the keychain": demo mode on a computer whose
 * keychain cannot be reached. The demo key is not a customer secret — a random key the host made
 * up for Blotter's own simulator on 127.0.0.1, valid only while that simulator runs — so the host
 * hands it to the engine in memory (worker data), and this store answers it for the data folder's
 * key account. Nothing is written anywhere. When the keychain works, every call goes to it
 * unchanged (the host stores the demo key there like any key).
 */
import { registerSecret } from '../redact';
import { KeychainUnavailableError, type KeychainStatus, type SecretStore } from './secretStore';

export const DEMO_KEY_BACKEND = 'in memory (the synthetic demo key; no keychain reachable)';

export function withInMemoryDemoKey(keychain: SecretStore, demoKey: string): SecretStore {
  registerSecret(demoKey);
  let removed = false;
  const unavailable = async (): Promise<boolean> => !(await keychain.probe()).available;
  return {
    async get(account) {
      try {
        return await keychain.get(account);
      } catch (error) {
        if (error instanceof KeychainUnavailableError) return removed ? null : demoKey;
        throw error;
      }
    },
    async set(account, secret) {
      if ((await unavailable()) && secret === demoKey) {
        removed = false;
        return;
      }
      await keychain.set(account, secret);
    },
    async delete(account) {
      if (await unavailable()) {
        const had = !removed;
        removed = true;
        return had;
      }
      return keychain.delete(account);
    },
    async probe(): Promise<KeychainStatus> {
      const status = await keychain.probe();
      return status.available ? status : { available: true, backend: DEMO_KEY_BACKEND };
    },
  };
}
