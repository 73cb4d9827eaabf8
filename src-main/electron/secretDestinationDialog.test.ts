/**
 * A stored secret goes to a new address only after the user says yes in one main-process dialog
 * naming the whole address: the API key to a new base URL (issue 11, item 3), the mail password to a
 * new mail server. ipc.ts finds both calls by the contract's `confirmsSecret`, not by name (issue 29).
 * Electron's dialog and ipcMain are fakes; the loop is the real one.
 */
import { describe, expect, it, vi } from 'vitest';
import { channelOf } from '../../src-shared/contract';
import type { EngineHandle } from '../engine/engineHandle';
import { registerCalls, type IpcMainLike } from './ipc';
import { secretDestinationConfirmer, type MessageDialogLike } from './secretDestinationDialog';
import type { SenderLike } from './senderCheck';

type Handler = (event: SenderLike, input: unknown) => Promise<unknown>;
type Win = { id: number };

function setup(answer: number | null, window: Win | null = { id: 1 }) {
  const handlers = new Map<string, Handler>();
  const ipcMain: IpcMainLike<SenderLike> = {
    handle: (channel, listener) => void handlers.set(channel, listener),
    removeHandler: (channel) => void handlers.delete(channel),
  };
  const dialog: MessageDialogLike<Win> = {
    showMessageBox: vi.fn(async () => ({ response: answer ?? 1 })),
  };
  const engine = { call: vi.fn(async () => ({ ok: true as const, value: {} })) };
  registerCalls({
    ipcMain,
    engine: engine as unknown as Pick<EngineHandle, 'call'>,
    isTrustedSender: () => true,
    confirmSecretDestination: secretDestinationConfirmer(dialog, () => window),
  });
  const confirm = (baseUrl: string) =>
    handlers.get(channelOf('confirmBaseUrl'))!({ sender: { id: 1 } } as unknown as SenderLike, { baseUrl });
  return { dialog, engine, confirm };
}

describe('confirming a new base URL for the API key', () => {
  it('asks in a dialog naming the host, and forwards only after "Send the key"', async () => {
    const { dialog, engine, confirm } = setup(0);
    expect(await confirm('https://api.moved.example/v2')).toEqual({ ok: true, value: {} });
    expect(engine.call).toHaveBeenCalledWith('confirmBaseUrl', { baseUrl: 'https://api.moved.example/v2' });
    const [window, options] = vi.mocked(dialog.showMessageBox).mock.calls[0]!;
    expect(window).toEqual({ id: 1 });
    expect(options.message).toBe('Send your API key to api.moved.example?');
    expect(options.buttons[options.defaultId]).toBe('Keep the key here');
    expect(options.cancelId).toBe(options.defaultId);
  });

  it('never reaches the engine when the user keeps the key, closes the dialog, or there is no window', async () => {
    for (const { answer, window } of [
      { answer: 1, window: { id: 1 } },
      { answer: null, window: { id: 1 } },
      { answer: 0, window: null },
    ]) {
      const { engine, confirm } = setup(answer, window);
      expect(await confirm('https://attacker.example')).toMatchObject({
        ok: false,
        error: { code: 'base_url_unconfirmed', message: expect.stringContaining('attacker.example') },
      });
      expect(engine.call).not.toHaveBeenCalled();
    }
  });

  it('never forwards without a confirmer wired in', async () => {
    const handlers = new Map<string, Handler>();
    const engine = { call: vi.fn() };
    registerCalls({
      ipcMain: { handle: (c, l) => void handlers.set(c, l), removeHandler: () => undefined },
      engine: engine as unknown as Pick<EngineHandle, 'call'>,
      isTrustedSender: () => true,
    });
    const answer = await handlers.get(channelOf('confirmBaseUrl'))!({} as SenderLike, {
      baseUrl: 'https://x.example',
    });
    expect(answer).toMatchObject({ ok: false, error: { code: 'base_url_unconfirmed' } });
    expect(engine.call).not.toHaveBeenCalled();
  });
});

describe('a new mail server for the stored password', () => {
  type Handler = (event: { senderFrame: { url: string } }, input: unknown) => Promise<unknown>;
  function setup(answer: number | null) {
    const handlers = new Map<string, Handler>();
    const asked: string[] = [];
    const forwarded: string[] = [];
    const dialog = {
      showMessageBox: async (_w: object, o: { message: string }) => {
        asked.push(o.message);
        return { response: answer ?? 1 };
      },
    };
    registerCalls({
      ipcMain: {
        handle: (channel: string, h: Handler) => void handlers.set(channel, h),
        removeHandler: (channel: string) => void handlers.delete(channel),
      },
      engine: { call: async (name: string) => (forwarded.push(name), { ok: true, value: {} }) },
      isTrustedSender: () => true,
      confirmSecretDestination: secretDestinationConfirmer(dialog, () => (answer === null ? null : {})),
    } as never);
    const call = (input: unknown) =>
      handlers.get('blotter:call:confirmAlertEmailHost')!({ senderFrame: { url: 'app://blotter/' } }, input);
    return { call, asked, forwarded };
  }

  it('reaches the engine only after the user says yes in a dialog naming the server’s whole address', async () => {
    const yes = setup(0);
    expect(await yes.call({ host: 'mail.example.org', port: 2525, tls: 'starttls' })).toEqual({
      ok: true,
      value: {},
    });
    // Another port is another server: the dialog names it, and its security.
    expect(yes.asked).toEqual(['Send your mail password to mail.example.org:2525 (STARTTLS)?']);
    expect(yes.forwarded).toEqual(['confirmAlertEmailHost']);

    const no = setup(1);
    expect(await no.call({ host: 'mail.example.org', port: 465, tls: 'tls' })).toMatchObject({
      ok: false,
      error: { code: 'base_url_unconfirmed' },
    });
    expect(no.forwarded).toEqual([]);
    expect(await no.call({ host: 'mail.example.org', port: 465, tls: 'tls' })).toMatchObject({
      error: {
        message: expect.stringMatching(
          /^The mail password stays where it was: .*mail\.example\.org:465 \(TLS\)/,
        ),
      },
    });

    const noWindow = setup(null);
    expect(
      (await noWindow.call({ host: 'x.org', port: 587, tls: 'starttls' })) as { ok: boolean },
    ).toMatchObject({ ok: false });
    expect(noWindow.forwarded).toEqual([]);
  });
});
