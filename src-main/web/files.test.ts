import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineHandle } from '../engine/engineHandle';
import { exportsDirOf } from '../engine/files/destination';
import { importsDirOf } from '../engine/files/sources';
import { startWebHost, type WebHost } from './server';

let dir: string;
let dataDir: string;
let host: WebHost;
let cookie: string;
let engine: EngineHandle & { call: ReturnType<typeof vi.fn> };

type Answer = { status: number; headers: IncomingHttpHeaders; body: Buffer };

function send(
  pathname: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: host.port,
        path: pathname,
        method: options.method ?? 'GET',
        headers: { Host: `127.0.0.1:${host.port}`, Cookie: cookie, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'blotter-web-files-'));
  dataDir = path.join(dir, 'data');
  mkdirSync(exportsDirOf(dataDir), { recursive: true });
  const renderer = path.join(dir, 'renderer');
  mkdirSync(renderer);
  writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>Blotter</title>');
  engine = {
    call: vi.fn(async (name: string, input: unknown) =>
      name === 'getAppInfo'
        ? { ok: true, value: { version: '1', host: 'web', dataDir } }
        : { ok: true, value: { name, input, jobId: 'j', fileName: 'f', total: 0 } },
    ),
    onEvent: () => () => undefined,
    close: async () => undefined,
  } as unknown as EngineHandle & { call: ReturnType<typeof vi.fn> };
  host = await startWebHost({ engine, rendererDir: renderer });
  cookie = '';
  const signIn = await send(new URL(host.url).pathname + new URL(host.url).search);
  cookie = signIn.headers['set-cookie']?.[0]?.split(';')[0] ?? '';
});
afterEach(async () => {
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('web host: downloads', () => {
  it('serves a finished export from exports/ as an attachment', async () => {
    writeFileSync(path.join(exportsDirOf(dataDir), 'blotter-incidents-1.csv'), 'cdid\r\n1\r\n');
    const answer = await send('/api/download/blotter-incidents-1.csv');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-disposition']).toBe('attachment; filename="blotter-incidents-1.csv"');
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.body.toString()).toBe('cdid\r\n1\r\n');
  });

  it('serves nothing else: no other folder, no partial file, not without the session', async () => {
    writeFileSync(path.join(exportsDirOf(dataDir), 'x.csv.abc.part'), 'partial');
    writeFileSync(path.join(dataDir, 'blotter.sqlite'), 'db');
    for (const name of [
      'x.csv.abc.part',
      '..%2Fblotter.sqlite',
      '%2E%2E%2Fblotter.sqlite',
      'missing.csv',
      '.hidden.csv',
    ])
      expect((await send(`/api/download/${name}`)).status, name).toBe(404);
    expect((await send('/api/download/x.csv', { headers: { Cookie: '' } })).status).toBe(401);
  });
});

describe('web host: downloads through symlinks', () => {
  it('refuses an export name that is a symlink to a file outside exports/', async () => {
    writeFileSync(path.join(dataDir, 'blotter.sqlite'), 'the whole archive');
    writeFileSync(path.join(dir, 'secret.csv'), 'secret,outside');
    symlinkSync(path.join(dataDir, 'blotter.sqlite'), path.join(exportsDirOf(dataDir), 'db.csv'));
    symlinkSync(path.join(dir, 'secret.csv'), path.join(exportsDirOf(dataDir), 'secret.csv'));
    for (const name of ['db.csv', 'secret.csv']) {
      const answer = await send(`/api/download/${name}`);
      expect(answer.status, name).toBe(403);
      expect(answer.body.toString()).not.toMatch(/archive|secret,outside/);
    }
  });

  it('still serves a symlink that stays inside exports/', async () => {
    writeFileSync(path.join(exportsDirOf(dataDir), 'real.csv'), 'inside');
    symlinkSync('real.csv', path.join(exportsDirOf(dataDir), 'alias.csv'));
    const answer = await send('/api/download/alias.csv');
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('inside');
  });
});

describe('web host: uploads', () => {
  it('streams the body into imports/ under a random id and answers it', async () => {
    const answer = await send('/api/upload', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/octet-stream',
        'X-Blotter-File-Name': encodeURIComponent('archive é.csv'),
      },
      body: 'cdid,type\n1,Theft\n',
    });
    expect(answer.status).toBe(200);
    const result = JSON.parse(answer.body.toString()) as {
      ok: true;
      value: { uploadId: string; name: string; bytes: number };
    };
    expect(result.value).toMatchObject({ name: 'archive é.csv', bytes: 18 });
    expect(readFileSync(path.join(importsDirOf(dataDir), `${result.value.uploadId}.upload`), 'utf8')).toBe(
      'cdid,type\n1,Theft\n',
    );
  });

  it('refuses form-sendable types, and a file over the limit leaves nothing behind', async () => {
    const form = await send('/api/upload', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: 'x',
    });
    expect(form.status).toBe(415);
    const big = await send('/api/upload', {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(2 * 1024 ** 3) },
      body: 'x',
    }).catch(() => ({ status: 413 }));
    expect(big.status).toBe(413);
    expect(existsSync(importsDirOf(dataDir)) ? readdirSync(importsDirOf(dataDir)) : []).toEqual([]);
  });

  it('lets imports read only uploads, and exports write only into exports/', async () => {
    const sendCall = (name: string, input: unknown) =>
      send(`/api/call/${name}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(input),
      });
    const refused = JSON.parse(
      (await sendCall('previewImport', { source: { path: '/etc/passwd' } })).body.toString(),
    );
    expect(refused).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    await sendCall('startExport', { format: 'csv', filters: {}, destination: { path: '/tmp/evil.csv' } });
    expect(engine.call).toHaveBeenCalledWith('startExport', { format: 'csv', filters: {} });
  });
});
