/**
 * Failures a handler means: `throw new EngineError(code, message)`, and the dispatcher answers
 * `{ ok: false, error }`. Anything else is a bug: it is logged (redacted) and the caller gets
 * `internal` with a safe message that points at the log, never the raw text.
 */
import type { BridgeError, ErrorCode } from '../../src-shared/contract';
import type { Logger } from './log';
import { redact } from './redact';
import { KeychainUnavailableError } from './secrets/secretStore';

export class EngineError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: BridgeError['issues'],
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

export function toBridgeError(
  error: unknown,
  context: { call: string; log: Logger; logFile: string },
): BridgeError {
  if (error instanceof EngineError) {
    const { code, issues } = error;
    return issues
      ? { code, message: redact(error.message), issues }
      : { code, message: redact(error.message) };
  }
  if (error instanceof KeychainUnavailableError) {
    return { code: 'keychain_unavailable', message: redact(error.message) };
  }
  context.log.error(`${context.call} failed`, { error });
  return {
    code: 'internal',
    message: `Something went wrong inside Blotter (${context.call}). The details are in ${context.logFile}.`,
  };
}
