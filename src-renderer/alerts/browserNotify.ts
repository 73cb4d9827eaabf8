/**
 * Desktop notifications in the web host: the browser's Notification API, only after the user
 * allowed it (the Alerts view asks, on a click). Electron's main process shows its own
 * (src-main/electron/alertHooks.ts), so the page stays quiet there. Pure, tested with a fake.
 */
import type { EngineEvent } from '../../src-shared/contract';

type AlertsChanged = Extract<EngineEvent, { type: 'alertsChanged' }>;

export type BrowserNotificationLike = {
  readonly permission: 'default' | 'denied' | 'granted';
  new (title: string, options?: { body?: string; tag?: string }): { onclick: (() => void) | null };
};

/** The words of one notification for what an event raised (null: nothing raised). */
export function alertNotice(event: AlertsChanged): { title: string; body: string; tag: string } | null {
  if (event.raised.length === 0) return null;
  const incidents = event.raised.reduce((n, r) => n + r.incidents, 0);
  const one = event.raised.length === 1 ? event.raised[0] : undefined;
  return {
    title: one ? `Blotter alert: ${one.ruleName}` : `Blotter: ${event.raised.length} new alerts`,
    body: `${incidents} incident${incidents === 1 ? '' : 's'}. ${event.unread} unread in Alerts.`,
    tag: event.raised.map((r) => r.id).join(','),
  };
}

/** Shows the notification when allowed; `open` on a click. Returns whether one was shown. */
export function notifyInBrowser(
  event: AlertsChanged,
  Notification: BrowserNotificationLike | undefined,
  open: () => void,
): boolean {
  const notice = alertNotice(event);
  if (!notice || !Notification || Notification.permission !== 'granted') return false;
  const n = new Notification(notice.title, { body: notice.body, tag: notice.tag });
  n.onclick = open;
  return true;
}
