/**
 * Which fetch the engine uses for the API. Node hosts (CLI, web host): Node's fetch, through
 * HTTPS_PROXY when set (nodeFetch.ts). The Electron host registers a fetch that goes through
 * Electron's net.fetch (system proxy settings) — for an engine in a worker thread, a bridge to the
 * main process — with `setHostFetch` before the first sync.
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
