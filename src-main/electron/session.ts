/**
 * Hardens the Electron session: the CSP on every response that has headers (http(s): the dev server
 * and, later, tiles; app:// answers carry it from appProtocol.ts), and every permission request
 * (camera, geolocation, notifications, …) denied — Blotter needs none.
 */
import type { Session } from 'electron';

/** The part of Electron's Session this module uses; tests pass a fake. */
export type SessionLike = {
  webRequest: Pick<Session['webRequest'], 'onHeadersReceived'>;
} & Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>;

export function hardenSession(session: SessionLike, csp: () => string): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withCsp(details.responseHeaders ?? {}, csp()) });
  });
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

/** The response headers with any CSP the server sent replaced by ours. */
export function withCsp(headers: Record<string, string[]>, csp: string): Record<string, string[]> {
  const kept = Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-security-policy');
  return { ...Object.fromEntries(kept), 'Content-Security-Policy': [csp] };
}
