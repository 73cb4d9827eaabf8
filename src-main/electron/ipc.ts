/**
 * The one registration loop: a handler per contract call, on the call's channel. Each handler checks
 * the sender, parses the input with the contract's zod schema and forwards it to the engine. Every
 * path answers a `Result`; nothing throws across IPC (a thrown error would reach the renderer as an
 * untyped string). `confirmBaseUrl` (let the stored API key go to a new base URL) is forwarded only
 * after the user said yes in the main-process dialog naming the host (keyAddressDialog.ts).
 */
import {
  callNames,
  channelOf,
  parseCallInput,
  type BridgeError,
  type CallName,
  type Result,
} from '../../src-shared/contract';
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
   * Asks the user whether the stored API key may go to `host` (keyAddressDialog.ts). `confirmBaseUrl`
   * reaches the engine only after a yes; without this, it never does.
   */
  confirmKeyAddress?(host: string): Promise<boolean>;
  /**
   * Asks whether the stored SMTP password may go to the mail server `address` (host:port and its
   * security: another port is another server); `confirmAlertEmailHost` needs a yes.
   */
  confirmMailServer?(address: string): Promise<boolean>;
}

const FORBIDDEN: BridgeError = {
  code: 'forbidden_sender',
  message: 'Only the Blotter window may call the engine.',
};

function hostOf(url: string): string | null {
  try {
    return new URL(url).host || null;
  } catch {
    return null;
  }
}

const notConfirmed = (host: string): Result<unknown> => ({
  ok: false,
  error: {
    code: 'base_url_unconfirmed',
    message: `The API key stays where it was: you did not confirm sending it to ${host.slice(0, 200)}.`,
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
    if (name === 'confirmBaseUrl') {
      const { baseUrl } = parsed.value as { baseUrl: string };
      const host = hostOf(baseUrl);
      if (!host || !(await deps.confirmKeyAddress?.(host))) return notConfirmed(host ?? baseUrl);
    }
    if (name === 'confirmAlertEmailHost') {
      // The SMTP password follows a new mail server only after the user's yes in the main process.
      const { host, port, tls } = parsed.value as { host: string; port: number; tls: 'starttls' | 'tls' };
      const address = `${host.includes(':') ? `[${host}]` : host}:${port} (${tls === 'tls' ? 'TLS' : 'STARTTLS'})`;
      if (!(await deps.confirmMailServer?.(address))) {
        const message = `The mail password stays where it was: you did not confirm sending it to ${address.slice(0, 300)}.`;
        return { ok: false, error: { code: 'base_url_unconfirmed', message } };
      }
    }
    return await deps.engine.call(name, parsed.value);
  } catch (error) {
    log.error(`${name} failed`, { error });
    return { ok: false, error: { code: 'internal', message: `Blotter could not complete ${name}.` } };
  }
}
