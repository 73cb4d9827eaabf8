import { describe, expect, it } from 'vitest';
import { alertNotifier, type NotificationLike } from './alertHooks';

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
