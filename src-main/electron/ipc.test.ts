import { describe, expect, it, vi } from 'vitest';
import { callNames, channelOf, EVENT_CHANNEL, type EngineEvent } from '../../src-shared/contract';
import type { EngineHandle } from '../engine/engineHandle';
import { forwardEvents } from './events';
import { registerCalls, type IpcMainLike } from './ipc';
import { trustedSenderCheck, type FrameLike, type SenderLike } from './senderCheck';

const APP = 'file:///app/out/renderer/index.html';

type Handler = (event: SenderLike, input: unknown) => Promise<unknown>;

function setup() {
  const handlers = new Map<string, Handler>();
  const ipcMain: IpcMainLike<SenderLike> = {
    handle: vi.fn((channel: string, listener: Handler) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    }),
    removeHandler: vi.fn((channel: string) => handlers.delete(channel)),
  };
  const mainFrame: FrameLike = { url: APP, parent: null, processId: 4, routingId: 1 };
  const webContents = { id: 1, mainFrame };
  const win = { isDestroyed: () => false, webContents };
  const engine = { call: vi.fn(async () => ({ ok: true as const, value: { keySet: false } })) };
  const dispose = registerCalls({
    ipcMain,
    engine: engine as unknown as Pick<EngineHandle, 'call'>,
    isTrustedSender: trustedSenderCheck(
      () => win,
      (url) => url === APP,
    ),
  });
  const invoke = (
    channel: string,
    input: unknown,
    event: SenderLike = { sender: webContents, senderFrame: mainFrame },
  ) => {
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler(event, input);
  };
  return { handlers, ipcMain, engine, invoke, webContents, mainFrame, dispose };
}

describe('registerCalls', () => {
  it('registers exactly one handler per call name, on its channel', () => {
    const { handlers, ipcMain, dispose } = setup();
    expect([...handlers.keys()].sort()).toEqual(callNames.map(channelOf).sort());
    expect(ipcMain.handle).toHaveBeenCalledTimes(callNames.length);
    dispose();
    expect(handlers.size).toBe(0);
  });

  it('forwards a good payload, parsed, to the engine and answers its Result', async () => {
    const { invoke, engine } = setup();
    const answer = await invoke(channelOf('setApiKey'), { key: '  abcd1234  ' });
    expect(answer).toEqual({ ok: true, value: { keySet: false } });
    expect(engine.call).toHaveBeenCalledWith('setApiKey', { key: 'abcd1234' });
  });

  it('refuses a bad payload with a typed bad_input, without calling the engine', async () => {
    const { invoke, engine } = setup();
    for (const input of [{ key: 'a b' }, { key: 42 }, 'text', { key: 'abcd', extra: true }]) {
      const answer = (await invoke(channelOf('setApiKey'), input)) as {
        ok: boolean;
        error: { code: string };
      };
      expect(answer.ok).toBe(false);
      expect(answer.error.code).toBe('bad_input');
    }
    expect(engine.call).not.toHaveBeenCalled();
  });

  it('refuses a call from a subframe with forbidden_sender', async () => {
    const { invoke, engine, webContents, mainFrame } = setup();
    const iframe: FrameLike = { url: APP, parent: mainFrame, processId: 4, routingId: 9 };
    const answer = await invoke(channelOf('getKeyStatus'), {}, { sender: webContents, senderFrame: iframe });
    expect(answer).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
    expect(engine.call).not.toHaveBeenCalled();
  });

  it('refuses a top frame showing a foreign page, another window, or a closed frame', async () => {
    const { invoke, engine, webContents, mainFrame } = setup();
    const foreign: FrameLike = { ...mainFrame, url: 'https://evil.example/' };
    const otherWindow = { id: 2, mainFrame };
    for (const event of [
      { sender: webContents, senderFrame: foreign },
      { sender: otherWindow, senderFrame: mainFrame },
      { sender: webContents, senderFrame: null },
    ]) {
      expect(await invoke(channelOf('getAppInfo'), {}, event)).toMatchObject({
        ok: false,
        error: { code: 'forbidden_sender' },
      });
    }
    expect(engine.call).not.toHaveBeenCalled();
  });

  it('never throws across IPC: an engine failure becomes a typed internal error', async () => {
    const { invoke, engine } = setup();
    engine.call.mockRejectedValueOnce(new Error('worker died'));
    const answer = await invoke(channelOf('getSettings'), {});
    expect(answer).toMatchObject({ ok: false, error: { code: 'internal' } });
  });
});

describe('forwardEvents', () => {
  it('sends engine events on the event channel while the window lives', () => {
    let emit: (event: EngineEvent) => void = () => {};
    const engine = { onEvent: (listener: (event: EngineEvent) => void) => ((emit = listener), () => {}) };
    const target = { destroyed: false, isDestroyed: () => target.destroyed, send: vi.fn() };
    forwardEvents(engine, () => target);
    const event: EngineEvent = { type: 'connectivity', online: false, message: 'Offline' };
    emit(event);
    target.destroyed = true;
    emit(event);
    expect(target.send.mock.calls).toEqual([[EVENT_CHANNEL, event]]);
  });
});
