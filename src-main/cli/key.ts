/**
 * The API key as the CLI hands it to its engine: a SecretStore that answers BLOTTER_API_KEY for the
 * data folder's key account when it is set (registered with the redactor at once, never stored),
 * and otherwise the OS keychain entry the app stored. The keychain is not touched while the
 * variable answers: a CLI with BLOTTER_API_KEY never loads keytar. The alerts' mail password
 * (scheduled reports, `report --send-due` from cron without D-Bus) comes the same way from
 * BLOTTER_SMTP_PASSWORD; it still goes only to the mail server it is bound to.
 */
import {
  apiKeyAccount,
  createKeytarSecretStore,
  registerSecret,
  smtpPasswordAccount,
  type KeychainStatus,
  type SecretStore,
} from '../engine/index';

export function cliSecretStore(
  env: Readonly<Record<string, string | undefined>>,
  keychain: () => SecretStore = createKeytarSecretStore,
): SecretStore {
  const fromEnv = env.BLOTTER_API_KEY?.trim() || undefined;
  if (fromEnv) registerSecret(fromEnv);
  const smtpFromEnv = env.BLOTTER_SMTP_PASSWORD || undefined;
  if (smtpFromEnv) registerSecret(smtpFromEnv);
  let store: SecretStore | undefined;
  const real = (): SecretStore => (store ??= keychain());
  const isKeyAccount = (account: string): boolean => account.startsWith(apiKeyAccount(''));
  const isSmtpAccount = (account: string): boolean => account.startsWith(smtpPasswordAccount(''));
  return {
    get: (account) => {
      if (fromEnv !== undefined && isKeyAccount(account)) return Promise.resolve(fromEnv);
      if (smtpFromEnv !== undefined && isSmtpAccount(account)) return Promise.resolve(smtpFromEnv);
      return real().get(account);
    },
    set: (account, secret) => real().set(account, secret),
    delete: (account) => real().delete(account),
    probe: (): Promise<KeychainStatus> => real().probe(),
  };
}
