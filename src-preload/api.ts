/**
 * The object the preload exposes as `window.blotter`: one function per contract call, built in one
 * loop, plus `onEvent`. It satisfies `BlotterApi`, and it hands the page nothing else: no
 * ipcRenderer, no IPC event objects (they carry the sender), no process.
 */
import type { IpcRendererEvent } from 'electron';
import {
  EVENT_CHANNEL,
  callNames,
  channelOf,
  type BlotterApi,
  type CallName,
  type EngineEvent,
} from '../src-shared/contract';

/** The part of Electron's ipcRenderer the preload uses; tests pass a fake. */
export interface IpcRendererLike {
  invoke(channel: string, input: unknown): Promise<unknown>;
  on(channel: string, listener: (event: IpcRendererEvent, payload: EngineEvent) => void): unknown;
  removeListener(channel: string, listener: (event: IpcRendererEvent, payload: EngineEvent) => void): unknown;
}

type Calls = { readonly [K in CallName]: BlotterApi[K] };

export function buildApi(ipc: IpcRendererLike): BlotterApi {
  // The loop covers every name of the contract; the cast restores the per-name types it cannot express.
  const calls = Object.fromEntries(
    callNames.map((name) => [name, (input: unknown) => ipc.invoke(channelOf(name), input)]),
  ) as unknown as Calls;

  const onEvent = (listener: (event: EngineEvent) => void): (() => void) => {
    const relay = (_event: IpcRendererEvent, payload: EngineEvent): void => listener(payload);
    ipc.on(EVENT_CHANNEL, relay);
    return () => {
      ipc.removeListener(EVENT_CHANNEL, relay);
    };
  };

  return { ...calls, onEvent } satisfies BlotterApi;
}
