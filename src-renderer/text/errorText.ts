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
  unauthorized: 'The service rejected the API key. Check it and enter it again in Settings.',
  ip_not_allowed: "The service does not accept requests from this computer's address.",
  rate_limited: 'The service asked Blotter to slow down. It will try again shortly.',
  offline: 'Blotter cannot reach the network right now.',
  server_error: 'The service had a problem. Blotter will try again later.',
  bad_response: 'The service sent an answer Blotter could not read.',
  conflict: 'Something else changed this at the same time. Try again.',
  cancelled: 'The request was cancelled.',
  internal: 'Blotter hit an unexpected problem.',
};

export function errorText(error: unknown): string {
  if (error instanceof BridgeCallError) {
    // bad_input messages list every field in developer terms; the fields show their own issues.
    if (error.code === 'bad_input' && error.issues.length > 0) return FALLBACK.bad_input;
    return error.message.trim() || FALLBACK[error.code];
  }
  return FALLBACK.internal;
}
