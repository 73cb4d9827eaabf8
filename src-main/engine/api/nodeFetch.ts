/**
 * The fetch for Node hosts (CLI, web host): Node's own fetch, or — when HTTPS_PROXY / HTTP_PROXY is
 * set — undici's fetch through an EnvHttpProxyAgent, which honours HTTPS_PROXY, HTTP_PROXY and
 * NO_PROXY (Node 20's built-in fetch ignores them). Inside Electron the host passes net.fetch
 * instead, which follows the system proxy settings.
 */
import type * as Undici from 'undici';
import type { FetchLike } from './source';

type Env = Readonly<Record<string, string | undefined>>;

export function proxyFromEnv(env: Env = process.env): string | undefined {
  return env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy || undefined;
}

export async function createNodeFetch(env: Env = process.env): Promise<FetchLike> {
  if (!proxyFromEnv(env)) return (url, init) => fetch(url, init);
  let undici: typeof Undici;
  try {
    undici = await import('undici');
  } catch {
    throw new Error(
      'HTTPS_PROXY is set, but the proxy support module (undici) is not installed. Reinstall Blotter, or unset HTTPS_PROXY.',
    );
  }
  const dispatcher = new undici.EnvHttpProxyAgent({
    httpProxy: env.HTTP_PROXY || env.http_proxy || undefined,
    httpsProxy: proxyFromEnv(env),
    noProxy: env.NO_PROXY || env.no_proxy || undefined,
  });
  return async (url, init) => (await undici.fetch(url, { ...init, dispatcher })) as unknown as Response;
}
