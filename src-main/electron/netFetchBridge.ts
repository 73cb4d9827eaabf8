/**
 * The engine's HTTP requests through Electron's net.fetch: Chromium's network stack, so the system
 * proxy settings (PAC, WPAD, per-user) and the OS certificate store apply, as they do in a browser
 * on the same office machine. The engine worker cannot reach `net`; startEngine's `hostFetch` sends
 * each request here over the worker's port (engine/api/fetchBridge.ts). `net` is passed in, so this
 * is tested with a fake.
 *
 * The API key is in the URL's query: nothing here logs a URL beyond its origin and path.
 */
import { createLogger, HOST_BODY_LIMIT, shownUrl, type HostFetch } from '../engine/index';

/** What this needs of Electron's `net` module. */
export interface NetLike {
  fetch(
    url: string,
    init: { method: string; headers: Record<string, string>; redirect?: 'manual'; signal?: AbortSignal },
  ): Promise<Response>;
}

const log = createLogger('net-fetch');

export function netFetchBridge(net: NetLike): HostFetch {
  return async ({ url, method, headers, redirect, maxBytes, signal }) => {
    const started = Date.now();
    const response = await net.fetch(url, {
      method,
      headers,
      ...(redirect ? { redirect } : {}),
      ...(signal ? { signal } : {}),
    });
    // Bytes, not text: the same bridge carries map tiles; the worker's Response decodes text itself.
    // Streamed and cut just past maxBytes: the worker refuses an answer over its cap.
    const body = await readUpTo(response, maxBytes ?? HOST_BODY_LIMIT);
    log.debug('request', {
      request: `${method} ${shownUrl(url)}`,
      status: response.status,
      ms: Date.now() - started,
    });
    return {
      status: response.status,
      statusText: response.statusText,
      headers: [...response.headers],
      body,
    };
  };
}

/** The body's first bytes, a little over `maxBytes` at most (the stream is cancelled there). */
export async function readUpTo(response: Response, maxBytes: number): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (total <= maxBytes) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    total += value.byteLength;
  }
  if (total > maxBytes) await reader.cancel().catch(() => undefined);
  const out = new Uint8Array(Math.min(total, maxBytes + 1));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, out.byteLength - at);
    out.set(part, at);
    at += part.byteLength;
    if (at >= out.byteLength) break;
  }
  return out;
}
