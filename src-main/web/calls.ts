/**
 * POST /api/call/<name>: the contract over HTTP. The body is the call's JSON input (≤ 1 MB, sent as
 * application/json, which an HTML form cannot send); bodies and answers are in the wire form of
 * src-shared/wire.ts (JSON, typed arrays as base64). An empty body means `{}`. Status codes:
 *
 * - 200: a `Result` — the engine's value, or a typed error (bad_input from the contract's schema,
 *   or any error the engine answers);
 * - 400 bad JSON, 404 unknown call, 405 not POST, 413 too large, 415 not JSON, 500 internal:
 *   also a JSON `Result` with `ok: false`, so the bridge reads every answer the same way.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isCallName, parseCallInput } from '../../src-shared/contract';
import { decodeWire } from '../../src-shared/wire';
import { createLogger, type EngineHandle } from '../engine/index';
import { sendError, sendJson } from './respond';

export const MAX_BODY_BYTES = 1024 * 1024;

const log = createLogger('web');

type Body = { ok: true; text: string } | { ok: false; tooLarge: true };

export async function handleCall(
  req: IncomingMessage,
  res: ServerResponse,
  engine: Pick<EngineHandle, 'call'>,
  rawName: string,
  /** Whether this requester may make this call with this (parsed) input; all calls when absent. */
  allowed?: (name: string, input: unknown) => boolean,
): Promise<void> {
  if (req.method !== 'POST') {
    return sendError(res, 405, { code: 'bad_input', message: 'Calls are POST requests.' }, { Allow: 'POST' });
  }
  const name = safeDecode(rawName);
  if (!isCallName(name)) {
    return sendError(res, 404, {
      code: 'unknown_call',
      message: `There is no call named "${rawName.slice(0, 100)}".`,
    });
  }
  if (!isJson(req.headers['content-type'])) {
    return sendError(res, 415, { code: 'bad_input', message: 'Send the input as application/json.' });
  }
  const body = await readBody(req, MAX_BODY_BYTES);
  if (!body.ok) {
    res.setHeader('Connection', 'close');
    return sendError(res, 413, { code: 'bad_input', message: 'The request body is larger than 1 MB.' });
  }
  let input: unknown;
  try {
    input = body.text.trim() === '' ? undefined : decodeWire(body.text);
  } catch {
    return sendError(res, 400, { code: 'bad_input', message: 'The request body is not valid JSON.' });
  }
  const parsed = parseCallInput(name, input);
  if (!parsed.ok) return sendJson(res, 200, parsed);
  if (allowed && !allowed(name, parsed.value)) {
    return sendError(res, 403, { code: 'forbidden_sender', message: `This page may not call ${name}.` });
  }
  try {
    sendJson(res, 200, await engine.call(name, parsed.value));
  } catch (error) {
    log.error(`${name} failed`, { error });
    sendError(res, 500, { code: 'internal', message: `Blotter could not complete ${name}.` });
  }
}

function isJson(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json';
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The body as UTF-8 text, or tooLarge as soon as it passes `limit` bytes (the rest is discarded). */
function readBody(req: IncomingMessage, limit: number): Promise<Body> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    req.resume();
    return Promise.resolve({ ok: false, tooLarge: true });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        resolve({ ok: false, tooLarge: true });
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', reject);
  });
}
