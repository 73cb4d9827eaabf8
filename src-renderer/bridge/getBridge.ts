/**
 * The renderer's one way to the engine: the preload's `window.blotter` inside Electron, otherwise
 * the web bridge over the web host's HTTP protocol.
 */
import type { BlotterApi } from '../../src-shared/contract';
import { EVENTS_PATH } from '../../src-shared/webProtocol';
import { createEventStream } from './eventStream';
import { createWebBridge } from './webBridge';

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent when the web host serves the renderer. */
    readonly blotter?: BlotterApi;
  }
}

let bridge: BlotterApi | null = null;

export function getBridge(): BlotterApi {
  bridge ??=
    window.blotter ??
    createWebBridge({
      fetch: (url, init) => window.fetch(url, init),
      events: createEventStream({
        url: EVENTS_PATH,
        open: (url) => new EventSource(url),
        onInvalid: (data) =>
          console.warn('Ignored an engine event that does not match the contract:', data.slice(0, 200)),
      }),
    });
  return bridge;
}
