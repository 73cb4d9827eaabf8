import { describe, expect, it, vi } from 'vitest';
import { callNames, channelOf, EVENT_CHANNEL, type EngineEvent } from '../src-shared/contract';
import { buildApi, type IpcRendererLike } from './api';

type Relay = (event: unknown, payload: EngineEvent) => void;

function fakeIpc() {
  const listeners = new Map<string, Set<Relay>>();
  const ipc = {
    invoke: vi.fn(async (channel: string, input: unknown) => ({ ok: true, value: { channel, input } })),
    on: vi.fn((channel: string, listener: Relay) => {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)?.add(listener);
    }),
    removeListener: vi.fn((channel: string, listener: Relay) => listeners.get(channel)?.delete(listener)),
  };
  const emit = (payload: EngineEvent) =>
    listeners.get(EVENT_CHANNEL)?.forEach((l) => l({ sender: 'x' }, payload));
  return { ipc: ipc as typeof ipc & IpcRendererLike, emit, listeners };
}

describe('buildApi', () => {
  it('has exactly one function per call name, plus onEvent', () => {
    const api = buildApi(fakeIpc().ipc);
    expect(Object.keys(api).sort()).toEqual([...callNames, 'onEvent'].sort());
    for (const key of Object.keys(api)) expect(typeof (api as Record<string, unknown>)[key]).toBe('function');
  });

  it("invokes each call on the call's channel with the input as given", async () => {
    const { ipc } = fakeIpc();
    const api = buildApi(ipc);
    await api.setApiKey({ key: 'abcd' });
    expect(ipc.invoke).toHaveBeenCalledWith(channelOf('setApiKey'), { key: 'abcd' });
    for (const name of callNames) {
      await (api[name] as (input: unknown) => Promise<unknown>)({});
      expect(ipc.invoke).toHaveBeenLastCalledWith(channelOf(name), {});
    }
  });

  it('delivers events without the IPC event object, and unsubscribes', () => {
    const { ipc, emit, listeners } = fakeIpc();
    const api = buildApi(ipc);
    const seen: unknown[][] = [];
    const off = api.onEvent((...args) => seen.push(args));
    const event: EngineEvent = { type: 'connectivity', online: true };
    emit(event);
    off();
    emit(event);
    expect(seen).toEqual([[event]]);
    expect(listeners.get(EVENT_CHANNEL)?.size).toBe(0);
  });
});
