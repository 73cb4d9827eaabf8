/**
 * The API key as the CLI hands it to its engine: a SecretStore that answers BLOTTER_API_KEY for the
 * data folder's key account when it is set (registered with the redactor at once, never stored),
 * and otherwise the OS keychain entry the app stored. The keychain is not touched while the
 * variable answers: a CLI with BLOTTER_API_KEY never loads keytar.
 */
import {
  apiKeyAccount,
  createKeytarSecretStore,
  registerSecret,
  type KeychainStatus,
  type SecretStore,
} from '../engine/index';

export function cliSecretStore(
  env: Readonly<Record<string, string | undefined>>,
  keychain: () => SecretStore = createKeytarSecretStore,
): SecretStore {
  const fromEnv = env.BLOTTER_API_KEY?.trim() || undefined;
  if (fromEnv) registerSecret(fromEnv);
  let store: SecretStore | undefined;
  const real = (): SecretStore => (store ??= keychain());
  const isKeyAccount = (account: string): boolean => account.startsWith(apiKeyAccount(''));
  return {
    get: (account) =>
      fromEnv !== undefined && isKeyAccount(account) ? Promise.resolve(fromEnv) : real().get(account),
    set: (account, secret) => real().set(account, secret),
    delete: (account) => real().delete(account),
    probe: (): Promise<KeychainStatus> => real().probe(),
  };
}
