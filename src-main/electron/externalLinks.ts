/**
 * Links leave the app only one way: an https URL (the API's permalinks) handed to the OS browser.
 * http, file, javascript:, custom schemes and URLs with credentials are never opened.
 */
import { createLogger } from '../engine/index';

const log = createLogger('links');

export function isSafeExternalUrl(candidate: string): boolean {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
}

/** Opens `url` in the OS browser when it is safe; returns whether it did. Never throws. */
export function openExternalIfSafe(url: string, openExternal: (url: string) => Promise<void>): boolean {
  if (!isSafeExternalUrl(url)) return false;
  openExternal(url).catch((error: unknown) => log.error('could not open a link', { url, error }));
  return true;
}
