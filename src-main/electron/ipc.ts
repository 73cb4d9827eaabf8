/**
 * The one registration loop: a handler per contract call, on the call's channel. Each handler checks
 * the sender, parses the input with the contract's zod schema and forwards it to the engine. Every
 * path answers a `Result`; nothing throws across IPC (a thrown error would reach the renderer as an
 * untyped string). A call whose contract entry `confirmsSecret` (the API key to a new base URL, the
 * mail password to a new mail server) is forwarded only after the user said yes in the main-process
 * dialog naming the address (secretDestinationDialog.ts); the loop reads the declaration, never a name.
 */
import {
  callNames,
  channelOf,
  parseCallInput,
  secretDestinationOf,
  type BridgeError,
  type CallName,
  type Result,
} from '../../src-shared/contract';
import { SECRET_NOUN, type SecretDestination } from '../../src-shared/secretDestination';
import { createLogger, type EngineHandle } from '../engine/index';
import type { SenderLike } from './senderCheck';

const log = createLogger('ipc');

/** The part of Electron's ipcMain the loop uses; tests pass a fake. */
export interface IpcMainLike<E> {
  handle(channel: string, listener: (event: E, input: unknown) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export interface CallRegistrationDeps<E extends SenderLike> {
  ipcMain: IpcMainLike<E>;
  engine: Pick<EngineHandle, 'call'>;
  isTrustedSender(event: E): boolean;
  /**
   * Asks the user whether a stored secret may go to a new address (secretDestinationDialog.ts). A
   * call that `confirmsSecret` reaches the engine only after a yes; without this, it never does.
   */
  confirmSecretDestination?(destination: SecretDestination): Promise<boolean>;
}

const FORBIDDEN: BridgeError = {
  code: 'forbidden_sender',
  message: 'Only the Blotter window may call the engine.',
};

const notConfirmed = (secret: SecretDestination['secret'], address: string): Result<unknown> => ({
  ok: false,
  error: {
    code: 'base_url_unconfirmed',
    message: `The ${SECRET_NOUN[secret]} stays where it was: you did not confirm sending it to ${address.slice(0, 300)}.`,
  },
});

/** Registers one handler per call name; returns the function that removes them all. */
export function registerCalls<E extends SenderLike>(deps: CallRegistrationDeps<E>): () => void {
  for (const name of callNames) {
    deps.ipcMain.handle(channelOf(name), (event: E, input: unknown) => handleCall(deps, name, event, input));
  }
  return () => callNames.forEach((name) => deps.ipcMain.removeHandler(channelOf(name)));
}

async function handleCall<E extends SenderLike>(
  deps: CallRegistrationDeps<E>,
  name: CallName,
  event: E,
  input: unknown,
): Promise<Result<unknown>> {
  try {
    if (!deps.isTrustedSender(event)) {
      log.warn(`refused ${name}`, { from: event.senderFrame?.url ?? 'a closed frame' });
      return { ok: false, error: FORBIDDEN };
    }
    const parsed = parseCallInput(name, input);
    if (!parsed.ok) return parsed;
    const destination = secretDestinationOf(name, parsed.value);
    if (destination && (destination.unreadable || !(await deps.confirmSecretDestination?.(destination))))
      return notConfirmed(destination.secret, destination.address);
    return await deps.engine.call(name, parsed.value);
  } catch (error) {
    log.error(`${name} failed`, { error });
    return { ok: false, error: { code: 'internal', message: `Blotter could not complete ${name}.` } };
  }
}
