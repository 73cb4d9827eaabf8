/**
 * Hardening applied to every web contents the app creates (main.ts wires it to
 * app 'web-contents-created'): no navigation away from the app's page, no new windows, no
 * <webview>. A link to an https page (an incident's permalink) opens in the OS browser instead.
 */
import { createLogger } from '../engine/index';
import { openExternalIfSafe } from './externalLinks';

const log = createLogger('shell');

interface Preventable {
  preventDefault(): void;
}

/** The part of Electron's WebContents this module uses; tests pass a fake. */
export interface HardenableContents {
  on(
    event: 'will-navigate' | 'will-redirect',
    listener: (event: Preventable & { url: string }) => void,
  ): this;
  on(event: 'will-attach-webview', listener: (event: Preventable) => void): this;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

export interface HardeningDeps {
  isAppUrl(url: string): boolean;
  openExternal(url: string): Promise<void>;
}

export function hardenWebContents(contents: HardenableContents, deps: HardeningDeps): void {
  const guard = (event: Preventable & { url: string }): void => {
    if (deps.isAppUrl(event.url)) return;
    event.preventDefault();
    if (!openExternalIfSafe(event.url, deps.openExternal)) log.warn('blocked a navigation away from the app');
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.setWindowOpenHandler(({ url }) => {
    openExternalIfSafe(url, deps.openExternal);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}
