/**
 * Calls that let a stored secret go to a new address. Their contract entry declares
 * `confirmsSecret`: from the call's parsed input, the secret and the whole address it would go to.
 * A host that can ask the user (Electron's main process) asks, naming that address, before it hands
 * the call to the engine; the hosts find these calls by this declaration, never by name.
 */

export type SecretName = 'apiKey' | 'mailPassword';

/**
 * Where a call would let a secret go. `unreadable`: the address is not one (a base URL that is not
 * a URL); the call is refused without asking, and `address` is the text as given.
 */
export type SecretDestination = { secret: SecretName; address: string; unreadable?: true };

/** How a secret is named in a sentence ("The API key stays where it was"). */
export const SECRET_NOUN: Record<SecretName, string> = { apiKey: 'API key', mailPassword: 'mail password' };

/** The API key follows a base URL: the address is its host (with a port when it has one). */
export function apiKeyDestination(input: { baseUrl: string }): SecretDestination {
  let host = '';
  try {
    host = new URL(input.baseUrl).host;
  } catch {
    // not a URL: unreadable below
  }
  return host
    ? { secret: 'apiKey', address: host }
    : { secret: 'apiKey', address: input.baseUrl, unreadable: true };
}

/** The mail password follows a whole mail server: host, port and security (another port is another server). */
export function mailPasswordDestination(input: {
  host: string;
  port: number;
  tls: 'starttls' | 'tls';
}): SecretDestination {
  const host = input.host.includes(':') ? `[${input.host}]` : input.host;
  return {
    secret: 'mailPassword',
    address: `${host}:${input.port} (${input.tls === 'tls' ? 'TLS' : 'STARTTLS'})`,
  };
}
