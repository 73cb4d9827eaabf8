/**
 * Engine events over Server-Sent Events (in the wire form of src-shared/wire.ts), for the web bridge. Opens the stream when the first
 * listener subscribes, closes it with the last, and reconnects with capped backoff when the host
 * drops the stream for good (the browser only retries by itself while the stream is CONNECTING).
 */
import { EngineEvent } from '../../src-shared/contract';
import { decodeWire } from '../../src-shared/wire';

/** The part of the DOM's EventSource this module uses, so tests can pass a fake. */
export type EventSourceLike = {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onmessage: ((message: MessageEvent<string>) => void) | null;
  onerror: ((event: Event) => void) | null;
  close(): void;
};

export type EventStreamDeps = {
  url: string;
  open: (url: string) => EventSourceLike;
  /** Runs `fn` after `ms`; returns a cancel function. */
  schedule?: (fn: () => void, ms: number) => () => void;
  /** Reports an event the engine sent that does not match the contract. */
  onInvalid?: (data: string) => void;
};

export type EventStream = { subscribe(listener: (event: EngineEvent) => void): () => void };

const CLOSED = 2;
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

export const retryDelay = (attempt: number): number => Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt);

const defaultSchedule = (fn: () => void, ms: number): (() => void) => {
  const timer = setTimeout(fn, ms);
  return () => clearTimeout(timer);
};

export function createEventStream(deps: EventStreamDeps): EventStream {
  const schedule = deps.schedule ?? defaultSchedule;
  const listeners = new Set<(event: EngineEvent) => void>();
  let source: EventSourceLike | null = null;
  let cancelRetry: (() => void) | null = null;
  let attempt = 0;

  const dispatch = (data: string): void => {
    let parsed: ReturnType<typeof EngineEvent.safeParse>;
    try {
      parsed = EngineEvent.safeParse(decodeWire(data));
    } catch {
      deps.onInvalid?.(data);
      return;
    }
    if (!parsed.success) {
      deps.onInvalid?.(data);
      return;
    }
    for (const listener of [...listeners]) listener(parsed.data);
  };

  const connect = (): void => {
    cancelRetry = null;
    const current = deps.open(deps.url);
    source = current;
    current.onopen = () => {
      attempt = 0;
      // Events sent before this stream (re)connected never reach us: tell the views that the
      // archive may have changed so they re-query instead of showing what they last saw.
      for (const listener of [...listeners]) listener({ type: 'incidentsChanged' });
    };
    current.onmessage = (message) => dispatch(message.data);
    current.onerror = () => {
      if (current.readyState !== CLOSED || source !== current) return;
      current.close();
      source = null;
      cancelRetry = schedule(connect, retryDelay(attempt));
      attempt += 1;
    };
  };

  const disconnect = (): void => {
    cancelRetry?.();
    cancelRetry = null;
    source?.close();
    source = null;
    attempt = 0;
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (listeners.size === 1 && !source && !cancelRetry) connect();
      return () => {
        if (!listeners.delete(listener)) return;
        if (listeners.size === 0) disconnect();
      };
    },
  };
}
