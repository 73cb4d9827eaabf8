import { describe, expect, it } from 'vitest';
import { notifyInBrowser, type BrowserNotificationLike } from './browserNotify';

function fake(permission: 'default' | 'denied' | 'granted') {
  const shown: { title: string; body?: string; instance: { onclick: (() => void) | null } }[] = [];
  const N = class {
    static permission = permission;
    onclick: (() => void) | null = null;
    constructor(title: string, options?: { body?: string }) {
      shown.push({ title, body: options?.body, instance: this });
    }
  } as unknown as BrowserNotificationLike;
  return { N, shown };
}

const raised = {
  type: 'alertsChanged' as const,
  unread: 2,
  raised: [{ id: 'x1', ruleName: 'Burglary watch', areaId: 1, incidents: 3 }],
};

describe('browser notifications for new alerts', () => {
  it('shows one after the user allowed it, naming the rule; a click opens Alerts', () => {
    const { N, shown } = fake('granted');
    let opened = 0;
    expect(notifyInBrowser(raised, N, () => opened++)).toBe(true);
    expect(shown).toEqual([
      expect.objectContaining({
        title: 'Blotter alert: Burglary watch',
        body: '3 incidents. 2 unread in Alerts.',
      }),
    ]);
    shown[0]!.instance.onclick?.();
    expect(opened).toBe(1);
  });

  it('stays quiet until allowed, when denied, and when nothing was raised (marked read)', () => {
    for (const permission of ['default', 'denied'] as const) {
      const { N, shown } = fake(permission);
      expect(notifyInBrowser(raised, N, () => undefined)).toBe(false);
      expect(shown).toEqual([]);
    }
    const { N, shown } = fake('granted');
    expect(notifyInBrowser({ ...raised, raised: [] }, N, () => undefined)).toBe(false);
    expect(notifyInBrowser(raised, undefined, () => undefined)).toBe(false);
    expect(shown).toEqual([]);
  });
});
