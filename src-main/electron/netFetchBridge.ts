/**
 * The engine's HTTP requests through Electron's net.fetch: Chromium's network stack, so the system
 * proxy settings (PAC, WPAD, per-user) and the OS certificate store apply, as they do in a browser
 * on the same office machine. The engine worker cannot reach `net`; startEngine's `hostFetch` sends
 * each request here over the worker's port (engine/api/fetchBridge.ts). `net` is passed in, so this
 * is tested with a fake.
 *
 * The API key is in the URL's query: nothing here logs a URL beyond its origin and path.
 */
import type { HostFetch } from '../engine/api/fetchBridge';
import { shownUrl } from '../engine/api/fetchBridge';
import { createLogger } from '../engine/log';

/** What this needs of Electron's `net` module. */
export interface NetLike {
  fetch(
    url: string,
    init: { method: string; headers: Record<string, string>; signal?: AbortSignal },
  ): Promise<Response>;
}

const log = createLogger('net-fetch');

export function netFetchBridge(net: NetLike): HostFetch {
  return async ({ url, method, headers, signal }) => {
    const started = Date.now();
    const response = await net.fetch(url, { method, headers, ...(signal ? { signal } : {}) });
    // Bytes, not text: the same bridge carries map tiles; the worker's Response decodes text itself.
    const body = new Uint8Array(await response.arrayBuffer());
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
