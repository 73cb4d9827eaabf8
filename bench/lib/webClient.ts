/**
 * A page of the web host, for benchmarks: signs in with the launch's token as a browser does (the
 * 303's session cookie), then makes contract calls (POST /api/call/<name>, wire-form JSON, the
 * headers a same-origin fetch sends), uploads a file (POST /api/upload, the raw body streamed, as
 * the import screen's upload.ts does) and keeps the event stream open (GET /api/events, SSE),
 * as src-renderer/bridge does.
 */
import { createReadStream, statSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import type { CallName, EngineEvent } from '../../src-shared/contract';
import { callPath, EVENTS_PATH, UPLOAD_NAME_HEADER, UPLOAD_PATH } from '../../src-shared/webProtocol';
import { decodeWire, encodeWire } from '../../src-shared/wire';

export type Answer = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

export type WebPage = {
  readonly origin: string;
  call(name: CallName, input: unknown): Promise<Answer>;
  /** A contract call that throws with the engine's message when it fails. */
  value<T>(name: CallName, input: unknown): Promise<T>;
  upload(file: string): Promise<{ uploadId: string; name: string; bytes: number }>;
  /** Opens the event stream; each event with the moment it arrived (performance.now()). */
  events(listener: (event: EngineEvent, at: number) => void): Promise<() => void>;
};

export async function signIn(url: string): Promise<WebPage> {
  const origin = new URL(url).origin;
  const answer = await fetch(url, { redirect: 'manual' });
  const cookie = answer.headers.get('set-cookie')?.split(';')[0];
  if (answer.status !== 303 || !cookie) throw new Error(`Signing in failed (HTTP ${answer.status}).`);
  // What Chromium sends with a same-origin fetch from the page.
  const page = { Cookie: cookie, Origin: origin, 'Sec-Fetch-Site': 'same-origin' };

  const post = (name: CallName, input: unknown) =>
    fetch(origin + callPath(name), {
      method: 'POST',
      headers: { ...page, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: encodeWire(input ?? {}),
    });
  const call = async (name: CallName, input: unknown): Promise<Answer> => {
    let response: Response;
    try {
      response = await post(name, input);
    } catch (error) {
      // A kept-alive connection the host closed as the request left (its 5 s idle timeout):
      // sent again on a new one, as a browser does; the wait counts both.
      if (!String((error as { cause?: { code?: string } }).cause?.code).startsWith('UND_ERR_SOCKET'))
        throw error;
      response = await post(name, input);
    }
    return decodeWire(await response.text()) as Answer;
  };

  const upload = (file: string) =>
    new Promise<{ uploadId: string; name: string; bytes: number }>((resolve, reject) => {
      const req = request(origin + UPLOAD_PATH, {
        method: 'POST',
        headers: {
          ...page,
          'Content-Type': 'application/octet-stream',
          'Content-Length': statSync(file).size,
          [UPLOAD_NAME_HEADER]: encodeURIComponent(path.basename(file)),
        },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const body = JSON.parse(text) as Answer;
          if (body.ok) resolve(body.value as { uploadId: string; name: string; bytes: number });
          else reject(new Error(`upload: ${body.error.message}`));
        });
      });
      createReadStream(file).pipe(req);
    });

  const events = (listener: (event: EngineEvent, at: number) => void) =>
    new Promise<() => void>((resolve, reject) => {
      const req = request(origin + EVENTS_PATH, { headers: { ...page, Accept: 'text/event-stream' } });
      req.on('error', reject);
      req.on('response', (res) => {
        if (res.statusCode !== 200) return reject(new Error(`events: HTTP ${res.statusCode}`));
        let pending = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const at = performance.now();
          pending += chunk;
          let end: number;
          while ((end = pending.indexOf('\n\n')) >= 0) {
            const block = pending.slice(0, end);
            pending = pending.slice(end + 2);
            for (const line of block.split('\n')) {
              if (line.startsWith('data: ')) listener(decodeWire(line.slice(6)) as EngineEvent, at);
            }
          }
        });
        res.on('error', () => undefined);
        resolve(() => req.destroy());
      });
      req.end();
    });

  return {
    origin,
    call,
    async value<T>(name: CallName, input: unknown) {
      const answer = await call(name, input);
      if (!answer.ok) throw new Error(`${name}: ${answer.error.message}`);
      return answer.value as T;
    },
    upload,
    events,
  };
}
