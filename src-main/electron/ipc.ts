/**
 * The one registration loop: a handler per contract call, on the call's channel. Each handler checks
 * the sender, parses the input with the contract's zod schema and forwards it to the engine. Every
 * path answers a `Result`; nothing throws across IPC (a thrown error would reach the renderer as an
 * untyped string).
 */
import {
  callNames,
  channelOf,
  parseCallInput,
  type BridgeError,
  type CallName,
  type Result,
} from '../../src-shared/contract';
import type { EngineHandle } from '../engine/engineHandle';
import { createLogger } from '../engine/log';
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
}

const FORBIDDEN: BridgeError = {
  code: 'forbidden_sender',
  message: 'Only the Blotter window may call the engine.',
};

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
    return await deps.engine.call(name, parsed.value);
  } catch (error) {
    log.error(`${name} failed`, { error });
    return { ok: false, error: { code: 'internal', message: `Blotter could not complete ${name}.` } };
  }
}
