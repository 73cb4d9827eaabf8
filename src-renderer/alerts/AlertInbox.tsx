/**
 * The inbox's shared state: the unread count (the sidebar's badge), a version that moves when alerts
 * change (the Alerts view re-reads), and desktop notifications in the web host. Follows the
 * engine's `alertsChanged` events; provided once by App.
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { Client } from '../bridge/client';
import { useCurrentEffect } from '../bridge/useCall';
import { useEngineEvent } from '../bridge/useEngineEvent';
import { notifyInBrowser, type BrowserNotificationLike } from './browserNotify';

export type AlertInbox = {
  unread: number;
  /** Moves whenever alerts were written or marked read. */
  version: number;
  setUnread: (n: number) => void;
  /** The browser's permission for desktop notifications (web host); null where the host notifies. */
  permission: NotificationPermission | null;
  askPermission: () => Promise<void>;
  /** Which host runs the page (how a new mail server is confirmed). */
  host: 'electron' | 'web' | 'cli' | null;
};

const InboxContext = createContext<AlertInbox | null>(null);

const browserNotification = (): BrowserNotificationLike | undefined =>
  typeof window !== 'undefined' && 'Notification' in window
    ? (window.Notification as unknown as BrowserNotificationLike)
    : undefined;

export function AlertInboxProvider({
  client,
  host,
  children,
}: {
  client: Client;
  /** Which host runs the page: only the web host's page shows browser notifications. */
  host: 'electron' | 'web' | 'cli' | null;
  children: ReactNode;
}) {
  const [unread, setUnread] = useState(0);
  const [version, setVersion] = useState(0);
  const web = host === 'web' && browserNotification() !== undefined;
  const [permission, setPermission] = useState<NotificationPermission | null>(
    web ? (browserNotification()?.permission ?? null) : null,
  );

  useEngineEvent(client, ['alertsChanged'], (event) => {
    setUnread(event.unread);
    setVersion((v) => v + 1);
    if (web)
      notifyInBrowser(event, browserNotification(), () => {
        window.focus();
        window.location.hash = '#/alerts';
      });
  });
  useCurrentEffect(
    (current) => {
      client
        .call('listAlerts', { limit: 1 })
        .then((r) => current() && setUnread(r.unread))
        .catch(() => undefined);
    },
    [client],
  );

  const askPermission = useCallback(async () => {
    const N = browserNotification() as unknown as {
      requestPermission?: () => Promise<NotificationPermission>;
    };
    if (!N?.requestPermission) return;
    setPermission(await N.requestPermission());
  }, []);

  const value = useMemo(
    () => ({ unread, version, setUnread, permission: web ? permission : null, askPermission, host }),
    [unread, version, web, permission, askPermission, host],
  );
  return <InboxContext.Provider value={value}>{children}</InboxContext.Provider>;
}

export function useAlertInbox(): AlertInbox {
  const inbox = useContext(InboxContext);
  if (!inbox) throw new Error('useAlertInbox() needs an <AlertInboxProvider> above it.');
  return inbox;
}

/** For the sidebar, which may render outside the provider in tests: 0 then. */
export function useUnreadAlerts(): number {
  return useContext(InboxContext)?.unread ?? 0;
}
