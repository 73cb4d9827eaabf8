import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallName, EngineEvent } from '../../src-shared/contract';
import { decodeWire, toWireValue } from '../../src-shared/wire';
import type { EngineHandle } from '../engine/engineHandle';
import type { PrintRequest } from './reportPrinter';
import { startWebHost, type WebHost } from './server';

const SECRET = 'top secret outside the renderer';

/** A stand-in engine: the web host only forwards, so this is all it needs. */
function fakeEngine() {
  const listeners = new Set<(event: EngineEvent) => void>();
  const engine = {
    call: vi.fn(async (name: CallName, input: unknown) => ({ ok: true as const, value: { name, input } })),
    onEvent: (listener: (event: EngineEvent) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: async () => {},
  };
  return {
    engine: engine as typeof engine & EngineHandle,
    listeners,
    emit: (e: EngineEvent) => listeners.forEach((l) => l(e)),
  };
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

let dir: string;
let host: WebHost;
let fake: ReturnType<typeof fakeEngine>;
let token: string;
let cookie: string;
let printer: (request: PrintRequest) => Promise<void> = async () => undefined;

function send(
  pathname: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; auth?: boolean } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { Host: `127.0.0.1:${host.port}`, ...options.headers };
  if (options.auth !== false && !('Cookie' in headers)) headers.Cookie = cookie;
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: host.port, path: pathname, method: options.method ?? 'GET', headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const call = (name: string, body: unknown, headers: Record<string, string> = {}) =>
  send(`/api/call/${name}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'blotter-web-'));
  const renderer = path.join(dir, 'renderer');
  mkdirSync(path.join(renderer, 'assets'), { recursive: true });
  writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>Blotter</title>');
  writeFileSync(path.join(renderer, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(path.join(dir, 'secret.txt'), SECRET);
  symlinkSync(path.join(dir, 'secret.txt'), path.join(renderer, 'assets', 'link.txt'));
  fake = fakeEngine();
  host = await startWebHost({
    engine: fake.engine,
    rendererDir: renderer,
    heartbeatMs: 50,
    print: (request) => printer(request),
  });
  token = new URL(host.url).searchParams.get('token') ?? '';
  const signIn = await send(`/?token=${token}`, { auth: false });
  cookie = signIn.headers['set-cookie']?.[0]?.split(';')[0] ?? '';
});

afterEach(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('web host: signing in', () => {
  it('prints a loopback URL with a long random token', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/);
  });

  it('refuses a request without the token, saying how to sign in', async () => {
    const answer = await send('/', { auth: false });
    expect(answer.status).toBe(401);
    expect(answer.body).toContain('Open the URL printed by `npm run web`, including its token');
    expect(answer.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a wrong token and a wrong cookie', async () => {
    expect((await send('/?token=wrong', { auth: false })).status).toBe(401);
    expect((await send(`/?token=${token}x`, { auth: false })).headers['set-cookie']).toBeUndefined();
    expect((await send('/', { headers: { Cookie: `blotter_session_${host.port}=wrong` } })).status).toBe(401);
    const api = await call('getAppInfo', {}, { Cookie: 'other=1' });
    expect(api.status).toBe(401);
    expect(JSON.parse(api.body)).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
    expect(fake.engine.call).not.toHaveBeenCalled();
  });

  it('trades the right token for an HttpOnly, SameSite=Strict cookie and redirects to /', async () => {
    const answer = await send(`/?token=${token}`, { auth: false });
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/');
    const [setCookie] = answer.headers['set-cookie'] ?? [];
    expect(setCookie).toMatch(
      new RegExp(`^blotter_session_${host.port}=[\\w-]{43}; HttpOnly; SameSite=Strict; Path=/$`),
    );
    const page = await send('/', {
      headers: { Cookie: answer.headers['set-cookie']?.[0]?.split(';')[0] ?? '' },
    });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<title>Blotter</title>');
  });

  it('gives a session cookie that is a fresh secret, not the launch token', async () => {
    const value = cookie.split('=')[1];
    expect(value).toMatch(/^[\w-]{43}$/);
    expect(value).not.toBe(token);
    expect(value).not.toContain(token);
    // The printed token is not a cookie: presenting it as one is refused.
    const asCookie = await call('getAppInfo', {}, { Cookie: `blotter_session_${host.port}=${token}` });
    expect(asCookie.status).toBe(401);
    expect(fake.engine.call).not.toHaveBeenCalled();
  });
});

describe('web host: Host and Origin', () => {
  it('refuses a foreign Host (DNS rebinding), even with the cookie', async () => {
    for (const name of [
      'evil.example',
      `evil.example:${host.port}`,
      `127.0.0.1:${host.port + 1}`,
      '127.0.0.1',
    ]) {
      expect((await send('/', { headers: { Host: name } })).status, name).toBe(421);
    }
    expect((await send('/', { headers: { Host: `localhost:${host.port}` } })).status).toBe(200);
  });

  it('refuses a foreign Origin, and calls nothing', async () => {
    for (const origin of [
      'http://evil.example',
      'null',
      `http://127.0.0.1:${host.port + 1}`,
      `https://127.0.0.1:${host.port}`,
    ]) {
      expect((await call('getAppInfo', {}, { Origin: origin })).status).toBe(403);
    }
    expect(fake.engine.call).not.toHaveBeenCalled();
    expect((await call('getAppInfo', {}, { Origin: `http://127.0.0.1:${host.port}` })).status).toBe(200);
  });

  it('refuses API requests that fetch metadata marks as cross-site', async () => {
    expect((await call('getAppInfo', {}, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await call('getAppInfo', {}, { 'Sec-Fetch-Site': 'same-origin' })).status).toBe(200);
  });

  it('never sends CORS headers, and always sends the security headers', async () => {
    for (const answer of [
      await send('/', { headers: { Origin: `http://127.0.0.1:${host.port}` } }),
      await call('getAppInfo', {}),
      await send('/', { auth: false }),
      await send('/', { method: 'OPTIONS', headers: { Origin: 'http://evil.example' } }),
    ]) {
      expect(Object.keys(answer.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
      expect(answer.headers['content-security-policy']).toContain("script-src 'self'");
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
      expect(answer.headers['cache-control']).toBe('no-store');
    }
  });
});

describe('web host: calls', () => {
  it('forwards a good call, parsed by the contract, to the engine and answers its Result', async () => {
    const answer = await call('setApiKey', { key: '  abcd1234 ' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({
      ok: true,
      value: { name: 'setApiKey', input: { key: 'abcd1234' } },
    });
    expect(fake.engine.call).toHaveBeenCalledWith('setApiKey', { key: 'abcd1234' });
  });

  it('answers a bad payload with a typed bad_input and does not call the engine', async () => {
    const answer = await call('setApiKey', { key: 'has space' });
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.body);
    expect(body).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(body.error.issues[0].path).toBe('key');
    const badJson = await call('setApiKey', '{"key":');
    expect(badJson.status).toBe(400);
    expect(JSON.parse(badJson.body)).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(fake.engine.call).not.toHaveBeenCalled();
  });

  it('answers an unknown call with 404 unknown_call', async () => {
    const answer = await call('dropTables', {});
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toMatchObject({ ok: false, error: { code: 'unknown_call' } });
    expect((await call('__proto__', {})).status).toBe(404);
  });

  it('requires POST with application/json (no simple-form CSRF) and a body under 1 MB', async () => {
    expect((await send('/api/call/getAppInfo')).status).toBe(405);
    const form = await call('getAppInfo', 'a=1', { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    expect((await call('getAppInfo', 'x', { 'Content-Type': 'text/plain' })).status).toBe(415);
    const big = await call('setApiKey', JSON.stringify({ key: 'k'.repeat(1024 * 1024 + 1) }));
    expect(big.status).toBe(413);
    expect(fake.engine.call).not.toHaveBeenCalled();
  });

  it('sends typed arrays in the wire form (base64), as the web bridge decodes them', async () => {
    fake.engine.call.mockResolvedValueOnce({
      ok: true,
      value: { lat: new Float64Array([1.5, -2]) },
    } as never);
    const answer = await call('getSettings', {});
    expect(decodeWire(answer.body)).toEqual({ ok: true, value: { lat: new Float64Array([1.5, -2]) } });
  });

  it('writes a worker’s base64 bytes as they came (a large answer, several chunks), decoded whole by the page', async () => {
    const lat = new Float32Array(400_000).map((_, i) => 41 + i / 1e7);
    const cdid = new Float64Array(400_000).map((_, i) => i * 3);
    fake.engine.call.mockResolvedValueOnce(toWireValue({ ok: true, value: { lat, cdid, n: 1 } }) as never);
    const answer = await call('getMapPoints', { filters: {} });
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
    const back = decodeWire(answer.body) as {
      ok: true;
      value: { lat: Float32Array; cdid: Float64Array; n: 1 };
    };
    const same = (a: ArrayBufferView, b: ArrayBufferView) =>
      Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
        Buffer.from(b.buffer, b.byteOffset, b.byteLength),
      );
    expect([back.ok, back.value.n, back.value.lat.constructor, back.value.cdid.constructor]).toEqual([
      true,
      1,
      Float32Array,
      Float64Array,
    ]);
    expect(same(back.value.lat, lat) && same(back.value.cdid, cdid)).toBe(true);
  });

  it('refuses an office join whose address or CA file names a path on this computer; takes an upload', async () => {
    const url = 'postgres://blotter@db.office.lan/office';
    for (const body of [
      { url: `${url}?sslrootcert=/etc/shadow`, password: null },
      { url, password: null, caFile: { path: '/etc/shadow' } },
      { url, password: null, caFile: { choose: true } },
    ]) {
      const answer = JSON.parse((await call('joinOffice', body)).body);
      expect(answer).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    }
    expect(fake.engine.call).not.toHaveBeenCalled();
    const caFile = { uploadId: 'u1234567890abcdef', name: 'ca.pem' };
    await call('joinOffice', { url, password: null, caFile });
    expect(fake.engine.call).toHaveBeenCalledWith('joinOffice', expect.objectContaining({ url, caFile }));
  });

  it('turns an engine failure into a typed internal error', async () => {
    fake.engine.call.mockRejectedValueOnce(new Error('worker died'));
    const answer = await call('getSettings', {});
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body)).toMatchObject({ ok: false, error: { code: 'internal' } });
  });
});

describe('web host: events', () => {
  it('streams engine events as SSE with heartbeats, and unsubscribes when the page goes', async () => {
    const event: EngineEvent = { type: 'connectivity', online: false, message: 'Offline' };
    // The host's own listeners (the scheduled reports' reportsDue) stay; the page's must go.
    const hostListeners = fake.listeners.size;
    const received = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: host.port,
          path: '/api/events',
          headers: { Host: `127.0.0.1:${host.port}`, Cookie: cookie, Accept: 'text/event-stream' },
        },
        (res) => {
          expect(res.statusCode).toBe(200);
          expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
            if (text.includes(': connected') && !text.includes('data:')) fake.emit(event);
            if (text.includes('data:') && text.includes(': heartbeat')) {
              req.destroy();
              resolve(text);
            }
          });
        },
      );
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      req.end();
    });
    const data = received.split('\n').find((line) => line.startsWith('data: '));
    expect(JSON.parse(data?.slice(6) ?? '')).toEqual(event);
    await vi.waitFor(() => expect(fake.listeners.size).toBe(hostListeners));
  });

  it('refuses the event stream without the cookie', async () => {
    expect((await send('/api/events', { auth: false })).status).toBe(401);
  });
});

describe('web host: static files', () => {
  it('serves the renderer with the right content types', async () => {
    const js = await send('/assets/app.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await send('/assets/missing.js')).status).toBe(404);
    expect((await send('/assets')).status).toBe(404);
  });

  it('answers a launch from memory: no file is opened on the host while the page loads', async () => {
    const renderer = path.join(dir, 'renderer');
    // Read at start: the files answer unchanged even once they are gone from disk.
    rmSync(path.join(renderer, 'assets', 'app.js'));
    const js = await send('/assets/app.js');
    expect(js.status).toBe(200);
    expect(js.body).toBe('console.log(1)');
    expect(js.headers['content-length']).toBe('14');
    expect((await send('/')).body).toContain('<title>Blotter</title>');
    // A file that arrived later is read from disk, with the same checks.
    writeFileSync(path.join(renderer, 'assets', 'late.css'), 'a{}');
    const css = await send('/assets/late.css');
    expect([css.status, css.headers['content-type'], css.body]).toEqual([
      200,
      'text/css; charset=utf-8',
      'a{}',
    ]);
    expect((await send('/assets/app.js', { method: 'POST' })).status).toBe(405);
  });

  it('refuses path traversal, encoded or through a symlink', async () => {
    for (const pathname of [
      '/../secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/%2e%2e%5c..%5csecret.txt',
      '/assets/link.txt',
      '/%00index.html',
      '/%E0%A4%A',
    ]) {
      const answer = await send(pathname);
      expect(answer.status, pathname).toBeGreaterThanOrEqual(400);
      expect(answer.body).not.toContain(SECRET);
    }
  });
});

describe('web host: print grants', () => {
  it('reads only its own job’s report and tiles, never other calls, and never becomes a session', async () => {
    fake.engine.call.mockImplementation(async (name: CallName, input: unknown) =>
      name === 'startExport'
        ? {
            ok: true as const,
            value: {
              jobId: 'job1',
              fileName: 'r.pdf',
              total: 1,
              print: { token: 'engine-token', file: path.join(dir, 'r.pdf') },
            } as never,
          }
        : { ok: true as const, value: { name, input } as never },
    );
    let release = (): void => undefined;
    const printing = new Promise<PrintRequest>((resolveRequest) => {
      printer = (request) => {
        resolveRequest(request);
        return new Promise<void>((resolve) => (release = resolve));
      };
    });
    expect((await call('startExport', { format: 'pdf', filters: {} })).status).toBe(200);
    const request = await printing;
    expect(request).toMatchObject({ origin: `http://127.0.0.1:${host.port}`, jobId: 'job1' });
    const grant = `${request.cookie.name}=${request.cookie.value}`;
    expect(request.cookie.value).not.toBe(token);
    expect(request.cookie.value).not.toBe(cookie.split('=')[1]);
    const asPrinter = { Cookie: grant };

    // The report page and its own figures and tiles.
    expect((await send('/', { headers: asPrinter })).status).toBe(200);
    expect((await send('/assets/app.js', { headers: asPrinter })).status).toBe(200);
    fake.engine.call.mockClear();
    expect((await call('getReport', { jobId: 'job1' }, asPrinter)).status).toBe(200);
    expect((await call('getBasemapInfo', {}, asPrinter)).status).toBe(200);
    expect((await call('getBasemapTile', { z: 1, x: 0, y: 0 }, asPrinter)).status).toBe(200);
    expect(fake.engine.call.mock.calls.map(([name]) => name)).toEqual([
      'getReport',
      'getBasemapInfo',
      'getBasemapTile',
    ]);
    fake.engine.call.mockClear();

    // Nothing else: another job, any other call, events, files.
    const refused = [
      await call('getReport', { jobId: 'job2' }, asPrinter),
      await call('getAppInfo', {}, asPrinter),
      await call('getSettings', {}, asPrinter),
      await call('setApiKey', { key: 'abcd1234' }, asPrinter),
      await call('startExport', { format: 'csv', filters: {} }, asPrinter),
      await call('finishReport', { jobId: 'job1', token: 'engine-token' }, asPrinter),
      await send('/api/events', { headers: asPrinter }),
      await send('/api/download/r.pdf', { headers: asPrinter }),
      await send('/api/upload', { method: 'POST', headers: asPrinter }),
    ];
    expect(refused.map((a) => a.status)).toEqual(refused.map(() => 403));
    expect(fake.engine.call).not.toHaveBeenCalled();

    // It never buys a session cookie.
    for (const answer of [
      await send(`/?print=${request.cookie.value}`, { headers: asPrinter }),
      await send(`/?token=${request.cookie.value}`, { headers: asPrinter }),
      await send(`/?token=${request.cookie.value}`, { auth: false }),
    ]) {
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
    expect((await send(`/?token=${request.cookie.value}`, { auth: false })).status).toBe(401);

    // Revoked when the print ends.
    release();
    await vi.waitFor(() =>
      expect(fake.engine.call).toHaveBeenCalledWith('finishReport', { jobId: 'job1', token: 'engine-token' }),
    );
    expect((await call('getReport', { jobId: 'job1' }, asPrinter)).status).toBe(401);
  });
});

describe('web host: refusal logging', () => {
  it('logs a flood of unauthenticated requests as one line, not one per request', async () => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      for (let i = 0; i < 300; i++) {
        const answers = await Promise.all([
          send('/', { auth: false }),
          send('/?token=wrong', { auth: false }),
          call('getAppInfo', {}, { Cookie: 'x=1' }),
          send('/', { headers: { Host: 'evil.example' } }),
        ]);
        expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 421]);
      }
    } finally {
      spy.mockRestore();
    }
    const refusals = written.filter((line) => line.includes('refused'));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toContain('further refusals are counted and logged once a minute');
  });
});
