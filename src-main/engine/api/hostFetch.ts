/**
 * Which fetch one engine uses for HTTP (the API, online map tiles): the host's when it passes one
 * (EngineOptions.fetch; Electron: net.fetch with the system proxy, bridged across the worker's
 * port by worker.ts and fetchBridge.ts), else Node's fetch, through HTTPS_PROXY when set
 * (nodeFetch.ts). Made once per engine, on first use, so an engine that never goes online (the
 * CLI's `status`, say) never loads the proxy module. No module state: two engines in one process
 * (tests, the demo switching folders) each have their own.
 */
import { createNodeFetch } from './nodeFetch';
import type { FetchLike } from './source';

export function engineFetch(hostFetch?: FetchLike | null): () => Promise<FetchLike> {
  if (hostFetch) {
    const given = Promise.resolve(hostFetch);
    return () => given;
  }
  let made: Promise<FetchLike> | null = null;
  return () => (made ??= createNodeFetch());
}
