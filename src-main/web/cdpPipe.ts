/**
 * A minimal Chrome DevTools Protocol client over `--remote-debugging-pipe`: Chromium reads
 * commands on its fd 3 and writes answers and events on its fd 4, each message JSON ended by a NUL
 * byte. No port is opened, so no other local process can reach the browser, and whatever we tell
 * it (a cookie, a URL) never appears on its command line.
 */
import type { Readable, Writable } from 'node:stream';

export type CdpMessage = {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message?: string };
  sessionId?: string;
};

export interface CdpConnection {
  /** Sends a command (to a page when `sessionId` is given) and resolves with its result. */
  send(
    method: string,
    params?: Record<string, unknown>,
    sessionId?: string,
  ): Promise<Record<string, unknown>>;
  /** Rejects every pending command (the browser went away). */
  fail(error: Error): void;
}

export function connectCdp(toBrowser: Writable, fromBrowser: Readable): CdpConnection {
  const pending = new Map<
    number,
    { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }
  >();
  let nextId = 0;
  let buffered = Buffer.alloc(0);
  let failure: Error | null = null;

  fromBrowser.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (let end = buffered.indexOf(0); end >= 0; end = buffered.indexOf(0)) {
      const text = buffered.subarray(0, end).toString('utf8');
      buffered = buffered.subarray(end + 1);
      let message: CdpMessage;
      try {
        message = JSON.parse(text) as CdpMessage;
      } catch {
        continue;
      }
      const waiter = message.id === undefined ? undefined : pending.get(message.id);
      if (!waiter || message.id === undefined) continue;
      pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message ?? 'DevTools command failed'));
      else waiter.resolve(message.result ?? {});
    }
  });
  // A closed pipe fails the commands still waiting.
  fromBrowser.on('close', () => fail(new Error('Chromium closed its DevTools pipe.')));
  toBrowser.on('error', (error: Error) => fail(error));

  function fail(error: Error): void {
    failure ??= error;
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  }

  return {
    send(method, params = {}, sessionId) {
      if (failure) return Promise.reject(failure);
      const id = ++nextId;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
      });
    },
    fail,
  };
}
