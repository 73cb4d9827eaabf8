/**
 * How a command fails: an engine call's typed error (its code from the contract), or a problem
 * found before the engine started. `exitCodeOf` is the one table from error codes to exit codes
 * (README.md, DESIGN.md's rules), and `cliWords` says the key problems in the CLI's own words.
 */
import type { BridgeError, ErrorCode } from '../../src-shared/contract';
import { EXIT } from './io';

/** A contract call answered an error. */
export class CallFailure extends Error {
  override name = 'CallFailure';
  constructor(
    readonly code: ErrorCode | string,
    message: string,
  ) {
    super(message);
  }

  static of(error: BridgeError): CallFailure {
    return new CallFailure(error.code, error.message);
  }
}

export function exitCodeOf(code: ErrorCode | string): number {
  switch (code) {
    case 'bad_input':
      return EXIT.usage;
    case 'unauthorized':
      return EXIT.unauthorized;
    case 'ip_not_allowed':
      return EXIT.ipNotAllowed;
    case 'no_api_key':
    case 'keychain_unavailable':
      return EXIT.noKey;
    case 'already_syncing':
      return EXIT.alreadySyncing;
    case 'cancelled':
      return EXIT.interrupted;
    case 'office_unreachable':
      return EXIT.officeUnreachable;
    default:
      return EXIT.failed;
  }
}

/** The engine's words, or the CLI's where the engine speaks of the app's screens. */
export function cliWords(code: ErrorCode | string, message: string): string {
  if (code === 'no_api_key')
    return 'No API key: set BLOTTER_API_KEY, or store the key for this data folder (blotter settings set api-key - < FILE, or the app’s Settings › API key).';
  if (code === 'keychain_unavailable')
    return `No BLOTTER_API_KEY is set and the keychain cannot be read: ${message.replace(/^The system keychain cannot be used: /, '')}`;
  return message;
}
