import { describe, expect, it } from 'vitest';
import { registerCalls } from './ipc';
import { alertNotifier, mailServerConfirmer, type NotificationLike } from './alertHooks';

function fakeNotification(supported = true) {
  const shown: { title: string; body: string; clicks: (() => void)[] }[] = [];
  class FakeNotification implements NotificationLike {
    private entry: { title: string; body: string; clicks: (() => void)[] };
    constructor(o: { title: string; body: string }) {
      this.entry = { title: o.title, body: o.body, clicks: [] };
    }
    static isSupported = () => supported;
    on(_event: 'click', listener: () => void) {
      this.entry.clicks.push(listener);
    }
    show() {
      shown.push(this.entry);
    }
  }
  return { FakeNotification, shown };
}

describe('Electron alert notifications', () => {
  it('shows one desktop notification per event that raised alerts, naming the rule; a click opens the window', () => {
    const { FakeNotification, shown } = fakeNotification();
    let opened = 0;
    const notify = alertNotifier(FakeNotification, () => opened++);
    notify({
      type: 'alertsChanged',
      unread: 3,
      raised: [{ id: 'a1', ruleName: 'Burglary watch', areaId: 1, incidents: 2 }],
    });
    notify({ type: 'alertsChanged', unread: 0, raised: [] }); // marked read: nothing to say
    notify({ type: 'incidentsChanged' });
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({
      title: 'Blotter alert: Burglary watch',
      body: '2 incidents. 3 unread in Alerts.',
    });
    shown[0]!.clicks.forEach((c) => c());
    expect(opened).toBe(1);
  });

  it('says nothing where the system has no notifications', () => {
    const { FakeNotification, shown } = fakeNotification(false);
    alertNotifier(
      FakeNotification,
      () => undefined,
    )({
      type: 'alertsChanged',
      unread: 1,
      raised: [{ id: 'a', ruleName: 'r', areaId: null, incidents: 1 }],
    });
    expect(shown).toEqual([]);
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
      confirmMailServer: mailServerConfirmer(dialog, () => (answer === null ? null : {})),
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

    const noWindow = setup(null);
    expect(
      (await noWindow.call({ host: 'x.org', port: 587, tls: 'starttls' })) as { ok: boolean },
    ).toMatchObject({ ok: false });
    expect(noWindow.forwarded).toEqual([]);
  });
});
