/** Any failure as one sentence a user can act on. The engine's own messages are already plain words. */
import type { ErrorCode } from '../../src-shared/contract';
import { BridgeCallError } from '../bridge/client';

const FALLBACK: Record<ErrorCode, string> = {
  bad_input: 'Some of the values need attention.',
  unknown_call: 'This version of Blotter does not know that request. Restart Blotter to update it.',
  forbidden_sender: 'Blotter refused a request from this window. Reload the page and try again.',
  not_found: 'That item no longer exists.',
  keychain_unavailable: 'Blotter cannot reach a keychain to store the API key.',
  no_api_key: 'No API key is set. Enter one in Settings.',
  base_url_unconfirmed: 'The API key has not been confirmed for this base URL. Confirm it in Settings.',
  unauthorized: 'The service rejected the API key. Check it and enter it again in Settings.',
  ip_not_allowed: "The service does not accept requests from this computer's address.",
  rate_limited: 'The service asked Blotter to slow down. It will try again shortly.',
  offline: 'Blotter cannot reach the network right now.',
  server_error: 'The service had a problem. Blotter will try again later.',
  bad_response: 'The service sent an answer Blotter could not read.',
  conflict: 'Something else changed this at the same time. Try again.',
  cancelled: 'The request was cancelled.',
  internal: 'Blotter hit an unexpected problem.',
  disk_full: 'The disk holding the data folder is full. Free some space, then try again.',
  database_locked: 'Another Blotter is using the data file. Try again in a moment.',
  database_corrupt: 'The data file is damaged. Restore it from a backup.',
  disk_error: 'The disk reported an error while Blotter used the data file.',
  native_module:
    'Blotter\'s SQLite module is missing or built for another version. Run "npm rebuild better-sqlite3" or reinstall Blotter.',
  already_syncing: 'Another Blotter is already syncing this area.',
  office_unreachable:
    'The office database cannot be reached: working on this computer’s copy; syncs pause until it is back.',
};

export function errorText(error: unknown): string {
  if (error instanceof BridgeCallError) {
    // bad_input messages list every field in developer terms; the fields show their own issues.
    if (error.code === 'bad_input' && error.issues.length > 0) return FALLBACK.bad_input;
    return error.message.trim() || FALLBACK[error.code];
  }
  return FALLBACK.internal;
}

/** A problem with the API in plain words and what to do about it; `settings` when the fix is there. */
export type Problem = { problem: string; action: string; settings: boolean };

/**
 * What the status bar, the Areas view and the incident panel say when talking to the API failed.
 * The codes a user can act on get fixed wording; the rest keep the engine's own (already plain) words.
 */
export function apiProblem(code: ErrorCode, message?: string): Problem {
  switch (code) {
    case 'unauthorized':
      return {
        problem: 'The API refused the key (401: invalid or missing).',
        action: 'Re-enter the API key in Settings.',
        settings: true,
      };
    case 'no_api_key':
      return { problem: 'No API key is set.', action: 'Enter the API key in Settings.', settings: true };
    case 'ip_not_allowed':
      return {
        problem: "The API refused this computer's public IP address (403): it is not on the key's allowlist.",
        action: "Ask the API operator to register your office's static IP address for this key.",
        settings: false,
      };
    case 'offline':
      return {
        problem: 'Blotter cannot reach the API.',
        action:
          'You are browsing the local archive, which works fully offline. Syncs can resume once the connection is back.',
        settings: false,
      };
    case 'rate_limited':
      return {
        problem: 'The API asked Blotter to slow down.',
        action: 'Blotter waits and tries again by itself.',
        settings: false,
      };
    case 'server_error':
      return {
        problem: message?.trim() || FALLBACK.server_error,
        action: 'Blotter retries by itself; if it keeps failing, try again later.',
        settings: false,
      };
    case 'keychain_unavailable':
      return {
        problem: FALLBACK.keychain_unavailable,
        action: 'Settings explains how to fix it.',
        settings: true,
      };
    case 'bad_input':
      if (message && /base URL/i.test(message))
        return { problem: message, action: 'Set the base URL in Settings.', settings: true };
      return { problem: message?.trim() || FALLBACK.bad_input, action: '', settings: false };
    default:
      return { problem: message?.trim() || FALLBACK[code], action: '', settings: false };
  }
}

/** The problem of any failed call (a BridgeCallError, or anything else as internal). */
export function problemOf(error: unknown): Problem {
  if (error instanceof BridgeCallError) return apiProblem(error.code, error.message);
  return apiProblem('internal');
}

/** The wait the API imposed or the plan's rate requires, counted down: "Waiting 12 s — …". */
export function waitText(seconds: number, why: 'server' | 'plan'): string {
  const s = Math.max(1, Math.ceil(seconds));
  return why === 'server'
    ? `Waiting ${s} s — the API asked us to slow down`
    : `Waiting ${s} s — keeping within your plan's rate limit`;
}
