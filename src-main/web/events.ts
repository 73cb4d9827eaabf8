/**
 * GET /api/events: engine events as Server-Sent Events, one `EngineEvent` per `data:` line (in the
 * wire form of src-shared/wire.ts).
 * A comment line every `heartbeatMs` keeps proxies and idle timers from closing the stream; the
 * subscription ends when the page goes away.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { encodeWire } from '../../src-shared/wire';
import type { EngineHandle } from '../engine/index';
import { sendError } from './respond';

export const HEARTBEAT_MS = 15_000;

/** Streams events to one page; returns the function that ends the stream (used on shutdown). */
export function streamEvents(
  req: IncomingMessage,
  res: ServerResponse,
  engine: Pick<EngineHandle, 'onEvent'>,
  heartbeatMs = HEARTBEAT_MS,
): (() => void) | null {
  if (req.method !== 'GET') {
    sendError(
      res,
      405,
      { code: 'bad_input', message: 'The event stream is a GET request.' },
      { Allow: 'GET' },
    );
    return null;
  }
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'X-Accel-Buffering': 'no',
  });
  res.write(': connected\n\n');
  const unsubscribe = engine.onEvent((event) => res.write(`data: ${encodeWire(event)}\n\n`));
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs);
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    unsubscribe();
    res.end();
  };
  req.on('close', end);
  res.on('close', end);
  return end;
}
