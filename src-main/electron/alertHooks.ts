/**
 * The Electron main process's part in alerts: a desktop notification (Electron `Notification`) for
 * each `alertsChanged` that raised alerts — clicking it brings the window forward on the Alerts
 * view. (The question before the stored SMTP password may go to a new mail server is
 * secretDestinationDialog.ts, the API key's question.) Electron objects are passed in, so this is
 * tested with fakes.
 */
import type { EngineEvent } from '../../src-shared/contract';

export interface NotificationLike {
  on(event: 'click', listener: () => void): unknown;
  show(): void;
}
export type NotificationCtor = {
  new (options: { title: string; body: string; silent?: boolean }): NotificationLike;
  isSupported(): boolean;
};

type AlertsChanged = Extract<EngineEvent, { type: 'alertsChanged' }>;

/** The words of one notification for the alerts an event raised (null: nothing raised). */
export function notificationText(event: AlertsChanged): { title: string; body: string } | null {
  const raised = event.raised;
  if (raised.length === 0) return null;
  const incidents = raised.reduce((n, r) => n + r.incidents, 0);
  const one = raised.length === 1 ? raised[0] : undefined;
  return {
    title: one ? `Blotter alert: ${one.ruleName}` : `Blotter: ${raised.length} new alerts`,
    body:
      `${incidents} incident${incidents === 1 ? '' : 's'}` +
      (one
        ? ''
        : ` (${raised
            .map((r) => r.ruleName)
            .join(', ')
            .slice(0, 200)})`) +
      `. ${event.unread} unread in Alerts.`,
  };
}

/** Shows a desktop notification per alertsChanged that raised alerts; `open` on a click. */
export function alertNotifier(Notification: NotificationCtor, open: () => void) {
  return (event: EngineEvent): void => {
    if (event.type !== 'alertsChanged' || !Notification.isSupported()) return;
    const text = notificationText(event);
    if (!text) return;
    const n = new Notification({ ...text, silent: false });
    n.on('click', open);
    n.show();
  };
}
