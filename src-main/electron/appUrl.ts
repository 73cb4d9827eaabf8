/**
 * Where the renderer is loaded from, and whether a URL is that place. The shell trusts exactly one
 * page: the built renderer's index.html served on its own scheme (`app://blotter/index.html`,
 * appProtocol.ts) or, in development, electron-vite's dev server. Never file://.
 */
import { APP_INDEX_URL } from './appProtocol';

/** The URL the main window loads. `devServerUrl` is electron-vite's ELECTRON_RENDERER_URL (dev only). */
export function appUrlOf(options: { devServerUrl?: string | undefined } = {}): string {
  return options.devServerUrl ? new URL(options.devServerUrl).href : APP_INDEX_URL;
}

/**
 * True when `candidate` is the app's page: for app:// the same host and index page (any query or
 * fragment), for the dev server the same origin. file:// and anything unparsable is not the app.
 */
export function isAppUrl(appUrl: string, candidate: string): boolean {
  let app: URL;
  let url: URL;
  try {
    app = new URL(appUrl);
    url = new URL(candidate);
  } catch {
    return false;
  }
  if (app.protocol === 'app:') {
    return (
      url.protocol === 'app:' &&
      url.host === app.host &&
      (url.pathname === app.pathname || url.pathname === '/') &&
      url.username === '' &&
      url.password === '' &&
      url.port === ''
    );
  }
  if (app.protocol === 'file:' || url.protocol === 'file:') return false;
  return url.origin === app.origin;
}

/**
 * electron-vite's dev server URL (ELECTRON_RENDERER_URL), honoured only in an unpackaged app and
 * only on loopback, so an environment variable can never point the trusted window at a remote page.
 */
export function devServerUrlFrom(env: Readonly<Record<string, string | undefined>>, isPackaged: boolean) {
  const value = env.ELECTRON_RENDERER_URL;
  if (isPackaged || !value) return undefined;
  try {
    const url = new URL(value);
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    return url.protocol === 'http:' && loopback ? url.href : undefined;
  } catch {
    return undefined;
  }
}
