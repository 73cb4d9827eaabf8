/**
 * This data folder's API key as the engine uses it. Whatever reads the key from the keychain goes
 * through here, so the value is registered with the log redactor before anything can print it.
 * Only `keyStatus` (never the key) leaves the engine.
 */
import type { KeyStatus } from '../../../src-shared/secrets';
import { EngineError } from '../errors';
import { registerSecret } from '../redact';
import { KeychainUnavailableError, type SecretStore } from './secretStore';

/** Whether a key is set and whether the keychain answers. Never throws for an unreachable keychain. */
export async function keyStatus(secrets: SecretStore, account: string): Promise<KeyStatus> {
  const keychain = await secrets.probe();
  if (!keychain.available) return { keySet: false, keychain };
  try {
    return { keySet: (await readKey(secrets, account)) !== null, keychain };
  } catch (error) {
    if (error instanceof KeychainUnavailableError) return { keySet: false, keychain: error.status };
    throw error;
  }
}

/** The key, for building a request; `no_api_key` when none is set, `keychain_unavailable` when unreachable. */
export async function readApiKey(secrets: SecretStore, account: string): Promise<string> {
  const key = await readKey(secrets, account);
  if (key === null) throw new EngineError('no_api_key', 'No API key is set. Enter your key in Settings.');
  return key;
}

/** Stores the key, after checking that the keychain answers (so the error explains how to fix it). */
export async function storeApiKey(secrets: SecretStore, account: string, key: string): Promise<void> {
  registerSecret(key);
  await requireKeychain(secrets);
  await secrets.set(account, key);
}

export async function deleteApiKey(secrets: SecretStore, account: string): Promise<void> {
  await requireKeychain(secrets);
  await secrets.delete(account);
}

async function readKey(secrets: SecretStore, account: string): Promise<string | null> {
  const key = await secrets.get(account);
  if (key !== null) registerSecret(key);
  return key;
}

async function requireKeychain(secrets: SecretStore): Promise<void> {
  const keychain = await secrets.probe();
  if (!keychain.available) throw new KeychainUnavailableError(keychain);
}
