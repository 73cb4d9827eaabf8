/**
 * The outbound rules against real loopback servers: https or literal loopback only, no redirect to
 * another origin (an "attacker" server on another loopback port never hears the key), and bodies
 * streamed and stopped at their cap — an endless answer is refused with a clear error while memory
 * stays small.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { isLiteralLoopback, outboundProblem } from '../../../src-shared/outboundRule';
import { ApiError } from './apiError';
import { createLiveSource } from './liveSource';
import { BODY_CAPS, checkOutboundUrl, OutboundRefused, outboundGet, readCapped } from './outboundAddress';

const KEY = 'outbound-secret-key-0042';
const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(
    servers.map((s) => new Promise((resolve) => (s.closeAllConnections(), s.close(resolve)))),
  );
});

type Seen = { urls: string[] };
async function serve(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<string & Seen> {
  const urls: string[] = [];
  const server = createServer((req, res) => {
    urls.push(req.url ?? '');
    answer(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const base = new String(`http://127.0.0.1:${(server.address() as AddressInfo).port}`) as string & Seen;
  base.urls = urls;
  return base;
}

const nodeFetch = (u: string, i: RequestInit) => fetch(u, i);
const search = { lat: 41.88, lon: -87.63, radius: 0.01, maxRecords: 1, sortOrder: 'DESC' as const };

async function apiFailure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected a failure');
}

describe('the written-address rule', () => {
  it('allows https anywhere and http only on literal loopback', () => {
    expect(outboundProblem('https://api.example.com')).toBeNull();
    expect(outboundProblem('http://127.0.0.1:8080')).toBeNull();
    expect(outboundProblem('http://127.9.9.9')).toBeNull();
    expect(outboundProblem('http://[::1]:9000')).toBeNull();
    expect(outboundProblem('http://localhost:3000')).toBeNull();
    expect(outboundProblem('http://api.example.com')).toMatch(/must start with https:\/\//);
    // Judged on the written address, never on what a name resolves to.
    expect(outboundProblem('http://localhost.attacker.example')).not.toBeNull();
    expect(outboundProblem('http://127.0.0.1.nip.io')).not.toBeNull();
    expect(outboundProblem('http://128.0.0.1')).not.toBeNull();
    expect(outboundProblem('ftp://127.0.0.1')).not.toBeNull();
    expect(outboundProblem('https://user:pw@api.example.com')).not.toBeNull();
    expect(isLiteralLoopback('[::1]')).toBe(true);
    expect(isLiteralLoopback('10.0.0.1')).toBe(false);
    expect(() => checkOutboundUrl('http://api.example.com/crimes.json')).toThrow(OutboundRefused);
  });

  it('refuses plain http to a non-loopback host before any request is made', async () => {
    let asked = 0;
    const counting = async (): Promise<Response> => {
      asked++;
      return new Response('{}');
    };
    const source = createLiveSource({ baseUrl: 'http://api.example.com', key: KEY, fetch: counting });
    const e = await apiFailure(source.search(search));
    expect(e.code).toBe('bad_input');
    expect(e.message).toMatch(/must start with https:\/\//);
    expect(e.retryable).toBe(false);
    expect(asked).toBe(0);
  });
});

describe('redirects', () => {
  it('never carries the key to another origin: the attacker server receives nothing', async () => {
    const attacker = await serve((_req, res) => res.end('{"crimes":[]}'));
    const api = await serve((req, res) => {
      res.writeHead(302, { Location: `${attacker}${req.url}` }).end();
    });
    const source = createLiveSource({ baseUrl: api, key: KEY, fetch: nodeFetch });
    const e = await apiFailure(source.search(search));
    expect(e.code).toBe('bad_response');
    expect(e.message).toContain('redirected the request to another address');
    expect(e.message).not.toContain(KEY);
    expect(api.urls).toHaveLength(1);
    expect(attacker.urls).toEqual([]);
  });

  it('follows a redirect within the same origin', async () => {
    const api = await serve((req, res) => {
      if (req.url?.startsWith('/old/')) {
        res.writeHead(301, { Location: req.url.replace('/old/', '/new/') }).end();
      } else {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"crimes":[]}');
      }
    });
    const source = createLiveSource({ baseUrl: `${api}/old`, key: KEY, fetch: nodeFetch });
    await expect(source.search(search)).resolves.toMatchObject({ incidents: [] });
    expect(api.urls.map((u) => u.split('?')[0])).toEqual(['/old/crimes.json', '/new/crimes.json']);
  });

  it('gives up after a few same-origin redirects', async () => {
    const api = await serve((req, res) => res.writeHead(302, { Location: req.url ?? '/' }).end());
    await expect(outboundGet(nodeFetch, `${api}/loop`, {})).rejects.toThrow(/redirected more than/);
  });
});

describe('body caps', () => {
  it('refuses an endless search answer at 8 MB with a clear message, memory staying small', async () => {
    let sent = 0;
    const api = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"crimes":[');
      const chunk = `${'{"type":"Theft","address":"x"},'.repeat(2000)}`;
      const pump = (): void => {
        while (sent < 400 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end(']}');
      };
      res.on('close', () => (sent = Infinity));
      pump();
    });
    const before = process.memoryUsage().rss;
    const source = createLiveSource({ baseUrl: api, key: KEY, fetch: nodeFetch });
    const e = await apiFailure(source.search(search));
    expect(e.code).toBe('bad_response');
    expect(e.message).toBe(
      "The service's answer was larger than 8 MB, the most Blotter accepts for it; Blotter stopped reading and kept nothing from it.",
    );
    expect(e.retryable).toBe(false);
    // Far less than the 400 MB on offer was read, and memory grew by little more than the cap.
    expect(process.memoryUsage().rss - before).toBeLessThan(120 * 1024 * 1024);
  });

  it('caps after decompression: a small gzip body that inflates past the cap is refused', async () => {
    const huge = gzipSync(Buffer.alloc(3 * 1024 * 1024, 0x20)); // 3 MB of spaces, ~3 KB on the wire
    const api = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }).end(huge);
    });
    const source = createLiveSource({ baseUrl: api, key: KEY, fetch: nodeFetch });
    const e = await apiFailure(source.detail(7));
    expect(e.message).toMatch(/larger than 1 MB/);
  });

  it('reads a body under its cap whole', async () => {
    const bytes = await readCapped(new Response(new Uint8Array(BODY_CAPS.detail)), BODY_CAPS.detail, 'x');
    expect(bytes.byteLength).toBe(BODY_CAPS.detail);
    await expect(
      readCapped(new Response(new Uint8Array(BODY_CAPS.detail + 1)), BODY_CAPS.detail, 'The tile'),
    ).rejects.toThrow(/^The tile was larger than 1 MB/);
  });
});
