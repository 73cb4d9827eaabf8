import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_INDEX_URL,
  handleAppProtocol,
  registerAppScheme,
  resolveAppFile,
  type ProtocolLike,
} from './appProtocol';
import { STRICT_CSP } from './csp';

const SECRET = 'a file outside the renderer';
let dir: string;
let renderer: string;

/** Fakes of Electron's protocol (records the handler) and net (reads file:// URLs from disk). */
function fakes() {
  const handlers = new Map<string, (request: Request) => Promise<Response> | Response>();
  const registered: Parameters<ProtocolLike['registerSchemesAsPrivileged']>[0] = [];
  const fetched: string[] = [];
  const protocol: ProtocolLike = {
    registerSchemesAsPrivileged: (schemes) => void registered.push(...schemes),
    handle: (scheme, handler) => void handlers.set(scheme, handler),
  };
  const net = {
    fetch: async (url: string) => {
      fetched.push(url);
      return new Response(await readFile(fileURLToPath(url)));
    },
  };
  return { protocol, net, handlers, registered, fetched };
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'blotter-app-protocol-'));
  renderer = path.join(dir, 'renderer');
  mkdirSync(path.join(renderer, 'assets'), { recursive: true });
  writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>Blotter</title>');
  writeFileSync(path.join(renderer, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(path.join(dir, 'secret.txt'), SECRET);
  symlinkSync(path.join(dir, 'secret.txt'), path.join(renderer, 'assets', 'link.js'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('app:// protocol', () => {
  it('registers app as a standard, secure scheme without CSP bypass or service workers', () => {
    const f = fakes();
    registerAppScheme(f.protocol);
    expect(f.registered).toEqual([
      {
        scheme: 'app',
        privileges: expect.objectContaining({
          standard: true,
          secure: true,
          supportFetchAPI: true,
          bypassCSP: false,
          allowServiceWorkers: false,
        }),
      },
    ]);
  });

  it('serves the renderer with its content type and the CSP', async () => {
    const f = fakes();
    handleAppProtocol(f.protocol, { rendererDir: renderer, net: f.net, csp: () => STRICT_CSP });
    const handler = f.handlers.get('app')!;
    const index = await handler(new Request(APP_INDEX_URL));
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toBe(STRICT_CSP);
    expect(await index.text()).toContain('<title>Blotter</title>');
    const js = await handler(new Request('app://blotter/assets/app.js'));
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await handler(new Request('app://blotter/'))).status).toBe(200);
    expect((await handler(new Request('app://blotter/assets/missing.js'))).status).toBe(404);
    expect((await handler(new Request('app://blotter/assets'))).status).toBe(404);
  });

  it('refuses path traversal, other hosts and symlinks out of the renderer folder', async () => {
    const f = fakes();
    handleAppProtocol(f.protocol, { rendererDir: renderer, net: f.net, csp: () => STRICT_CSP });
    const handler = f.handlers.get('app')!;
    for (const url of [
      'app://blotter/../secret.txt',
      'app://blotter/assets/../../secret.txt',
      'app://blotter/..%2fsecret.txt',
      'app://blotter/%2e%2e/secret.txt',
      'app://blotter/assets/%2e%2e%5c..%5csecret.txt',
      'app://blotter/assets/link.js',
      'app://blotter/%00index.html',
      'app://other/index.html',
      `app://blotter/${encodeURIComponent(path.join(dir, 'secret.txt'))}`,
    ]) {
      const answer = await handler(new Request(url));
      expect(answer.status, url).toBeGreaterThanOrEqual(400);
      expect(await answer.text()).not.toContain(SECRET);
    }
    expect(f.fetched.some((u) => u.includes('secret'))).toBe(false);
    expect((await handler(new Request(APP_INDEX_URL, { method: 'POST', body: 'x' }))).status).toBe(405);
  });

  it('resolves only files inside the real renderer folder', async () => {
    expect(await resolveAppFile(renderer, 'app://blotter/index.html')).toEqual({
      file: path.join(renderer, 'index.html'),
    });
    expect(await resolveAppFile(renderer, 'app://blotter/assets/link.js')).toEqual({ status: 403 });
    expect(await resolveAppFile(renderer, 'file:///etc/passwd')).toEqual({ status: 403 });
  });
});
