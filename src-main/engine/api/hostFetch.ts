/**
 * Which fetch the engine uses for HTTP (the API, online map tiles). Node hosts (CLI, web host): Node's
 * fetch, through HTTPS_PROXY when set (nodeFetch.ts). When a host passes `hostFetch` to startEngine
 * (Electron: net.fetch, the system proxy settings), the worker registers the bridge to it here with
 * `setHostFetch` before the engine starts (worker.ts, fetchBridge.ts).
 */
import { createNodeFetch } from './nodeFetch';
import type { FetchLike } from './source';

let registered: FetchLike | null = null;
let fallback: Promise<FetchLike> | null = null;

export function setHostFetch(fetch: FetchLike | null): void {
  registered = fetch;
}

export function hostFetch(): Promise<FetchLike> {
  if (registered) return Promise.resolve(registered);
  return (fallback ??= createNodeFetch());
}
