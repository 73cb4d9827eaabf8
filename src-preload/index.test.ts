import { describe, expect, it, vi } from 'vitest';
import { callNames, channelOf } from '../src-shared/contract';

const exposed = vi.hoisted(() => new Map<string, unknown>());
const invoke = vi.hoisted(() => vi.fn(async () => ({ ok: true, value: null })));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, value: unknown) => exposed.set(key, value) },
  ipcRenderer: { invoke, on: vi.fn(), removeListener: vi.fn() },
}));

describe('preload', () => {
  it('exposes one key, `blotter`, holding the contract and onEvent — nothing else', async () => {
    await import('./index');
    expect([...exposed.keys()]).toEqual(['blotter']);
    const api = exposed.get('blotter') as Record<string, (input: unknown) => Promise<unknown>>;
    expect(Object.keys(api).sort()).toEqual([...callNames, 'onEvent'].sort());
    expect(api).not.toHaveProperty('ipcRenderer');
    expect(api).not.toHaveProperty('process');
    await api.getAppInfo?.({});
    expect(invoke).toHaveBeenCalledWith(channelOf('getAppInfo'), {});
  });
});
