/**
 * The API key for the command line: BLOTTER_API_KEY, else the keychain entry of this data folder's
 * profile (the one the app stores). Registered with the redactor at once; never printed.
 */
import { registerSecret } from '../engine/redact';
import { createKeytarSecretStore } from '../engine/secrets/keytarSecretStore';
import { apiKeyAccount, KeychainUnavailableError, type SecretStore } from '../engine/secrets/secretStore';

export class NoKeyError extends Error {
  override name = 'NoKeyError';
}

export async function resolveApiKey(
  env: Readonly<Record<string, string | undefined>>,
  profileId: string,
  secrets: () => SecretStore = () => createKeytarSecretStore(),
): Promise<string> {
  const fromEnv = env.BLOTTER_API_KEY?.trim();
  if (fromEnv) {
    registerSecret(fromEnv);
    return fromEnv;
  }
  try {
    const key = await secrets().get(apiKeyAccount(profileId));
    if (key) {
      registerSecret(key);
      return key;
    }
  } catch (error) {
    if (error instanceof KeychainUnavailableError) {
      throw new NoKeyError(
        `No BLOTTER_API_KEY is set and the keychain cannot be read: ${error.status.problem} ${error.status.fix}`,
      );
    }
    throw error;
  }
  throw new NoKeyError(
    'No API key: set BLOTTER_API_KEY, or store the key for this data folder in the app (Settings › API key).',
  );
}
