/**
 * "Test connection" against the simulator on loopback: a good key, a wrong key (401), a key whose
 * allowlist excludes this computer (403), a 429, a 5xx, a wrong base URL (404), an HTML page, a
 * server that never answers, nothing listening, a name that does not resolve, and a proxy that is
 * not there — each answered with its own code and plain words.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../src-sim/index';
import type { CallInput, EngineEvent } from '../../../src-shared/contract';
import { createNodeFetch } from '../api/nodeFetch';
import type { EngineHandle } from '../engineHandle';
import { createInProcessEngine } from '../inProcessEngine';
import { createMemorySecretStore, type MemorySecretStore } from '../secrets/memorySecretStore';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { checkConnection, IP_NOT_ALLOWED, UNAUTHORIZED } from '../api/connectionCheck';

const GOOD = 'welcome-good-key-0001';
const SLOW = 'welcome-slow-key-0002';
const ELSEWHERE = 'welcome-other-office-0003';

let sim: Simulator;
let tmp: TempDir;
let secrets: MemorySecretStore;
let engine: EngineHandle;
const servers: Server[] = [];

beforeAll(async () => {
  sim = await startSimulator({
    seed: 3,
    scale: 5_000,
    keys: [
      { key: GOOD, plan: 'developer', ips: ['127.0.0.1', '::1'] },
      { key: SLOW, plan: 'developer', ips: ['127.0.0.1', '::1'], ratePerMinute: 1 },
      { key: ELSEWHERE, plan: 'developer', ips: ['203.0.113.7'] },
    ],
  });
});
afterAll(async () => {
  await sim.close();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});
beforeEach(async () => {
  tmp = makeTempDir();
  secrets = createMemorySecretStore();
  engine = await createInProcessEngine({
    dataDir: tmp.path,
    host: 'web',
    version: 't',
    secrets,
    logFile: null,
  });
});
afterEach(async () => {
  sim.setFaults({ errorRate: 0 });
  await engine.close();
  tmp.remove();
});

const test = (input: CallInput<'testConnection'>) => engine.call('testConnection', input);

/** A loopback server answering every request with `answer`; its base URL. `heard` gets each request's URL. */
async function serve(
  answer: (res: ServerResponse, url: string) => void,
  heard: string[] = [],
): Promise<string> {
  const server = createServer((req, res) => {
    heard.push(req.url ?? '');
    answer(res, req.url ?? '');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('testConnection through the engine', () => {
  it('stores the settings and the key, then reports a working connection without the key', async () => {
    const r = await test({ baseUrl: `${sim.url}/`, plan: 'developer', key: GOOD });
    expect(r).toMatchObject({ ok: true, value: { host: sim.url.replace('http://', '') } });
    if (!r.ok) return;
    expect(r.value.message).toMatch(/^Connected to 127\.0\.0\.1:\d+: the API accepted the key/);
    expect(r.value.incidents).toBeLessThanOrEqual(1);
    expect(JSON.stringify(r)).not.toContain(GOOD);
    expect([...secrets.entries.values()]).toEqual([GOOD]);
    expect(await engine.call('getSettings', {})).toMatchObject({ ok: true, value: { baseUrl: sim.url } });
    expect(await engine.call('getKeyStatus', {})).toMatchObject({ ok: true, value: { keySet: true } });
    // Later tests need no input: the stored settings and key are used.
    expect(await test({})).toMatchObject({ ok: true });
  });

  it('says the key was rejected (401)', async () => {
    const r = await test({ baseUrl: sim.url, key: 'not-a-key-anyone-issued' });
    expect(r).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect(!r.ok && r.error.message).toContain(UNAUTHORIZED);
  });

  it('explains a key whose static-IP allowlist excludes this computer (403)', async () => {
    const r = await test({ baseUrl: sim.url, key: ELSEWHERE });
    expect(r).toMatchObject({ ok: false, error: { code: 'ip_not_allowed' } });
    expect(!r.ok && r.error.message).toContain(IP_NOT_ALLOWED);
  });

  it('asks for a base URL first, next to the field', async () => {
    const r = await test({ key: GOOD });
    expect(r).toMatchObject({ ok: false, error: { code: 'bad_input', issues: [{ path: 'baseUrl' }] } });
  });

  it('says the base URL has no API (404)', async () => {
    const r = await test({ baseUrl: `${sim.url}/api`, key: GOOD });
    expect(r).toMatchObject({ ok: false, error: { code: 'bad_input', issues: [{ path: 'baseUrl' }] } });
    expect(!r.ok && r.error.message).toMatch(/has no API at this address \(HTTP 404/);
  });

  it('passes on the rate limit (429) and a server error (5xx)', async () => {
    expect(await test({ baseUrl: sim.url, key: SLOW })).toMatchObject({ ok: true });
    const limited = await test({});
    expect(limited).toMatchObject({ ok: false, error: { code: 'rate_limited' } });
    expect(!limited.ok && limited.error.message).toMatch(/used up its rate limit \(HTTP 429\)/);

    sim.setFaults({ errorRate: 1 });
    const failing = await test({ key: GOOD });
    expect(failing).toMatchObject({ ok: false, error: { code: 'server_error' } });
    expect(!failing.ok && failing.error.message).toMatch(/answered with a server error \(HTTP 5\d\d\)/);
  });

  it("says an HTML page or other JSON isn't the API", async () => {
    const html = await serve((res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>Sign in to the guest Wi-Fi</title>');
    });
    const r = await test({ baseUrl: html, key: GOOD });
    expect(r).toMatchObject({ ok: false, error: { code: 'bad_response' } });
    expect(!r.ok && r.error.message).toMatch(/answered with something that isn't the API \(an HTML page\)/);

    const other = await serve((res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"status":"ok"}');
    });
    const o = await test({ baseUrl: other, key: GOOD }); // the failed test above stored nothing
    expect(!o.ok && o.error.message).toMatch(/something that isn't the API \(data in another format\)/);
  });

  it('tells the status bar when a test finds the API unreachable, and when a later one reaches it', async () => {
    const events: EngineEvent[] = [];
    engine.onEvent((e) => events.push(e));
    const port = await closedPort();
    await test({ baseUrl: `http://127.0.0.1:${port}`, key: GOOD });
    expect(events.filter((e) => e.type === 'connectivity')).toEqual([
      {
        type: 'connectivity',
        online: false,
        message: `Can't reach the API at 127.0.0.1:${port} — showing the local archive`,
      },
    ]);
    // A 401 is an answer: the API is reachable again.
    await test({ baseUrl: sim.url, key: 'not-a-key-anyone-issued' });
    expect(events.filter((e) => e.type === 'connectivity').at(-1)).toEqual({
      type: 'connectivity',
      online: true,
    });
  });

  it('says when nothing listens at the address, or the name does not resolve', async () => {
    const port = await closedPort();
    const refused = await test({ baseUrl: `http://127.0.0.1:${port}`, key: GOOD });
    expect(refused).toMatchObject({ ok: false, error: { code: 'offline' } });
    expect(!refused.ok && refused.error.message).toBe(
      `Could not reach 127.0.0.1:${port}: nothing accepts connections there (connection refused). Check the base URL, including its port.`,
    );

    const dns = await test({ baseUrl: 'https://blotter-welcome-test.invalid', key: GOOD });
    expect(dns).toMatchObject({ ok: false, error: { code: 'offline' } });
    expect(!dns.ok && dns.error.message).toMatch(
      /^Could not reach blotter-welcome-test\.invalid: the name does not resolve/,
    );
  });
});

describe('what a test stores (issue 11, item 22)', () => {
  const stored = async () => ({
    baseUrl: (await engine.call('getSettings', {})).ok ? undefined : null,
    settings: await engine.call('getSettings', {}),
    keys: [...secrets.entries.values()],
  });

  it('stores nothing when the key is refused (401), nothing answers, or the answer is not the API', async () => {
    const port = await closedPort();
    const html = await serve((res) =>
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>Wi-Fi</p>'),
    );
    for (const baseUrl of [sim.url, `http://127.0.0.1:${port}`, html]) {
      const key = baseUrl === sim.url ? 'not-a-key-anyone-issued' : GOOD;
      expect(await test({ baseUrl, key })).toMatchObject({ ok: false });
      const now = await stored();
      expect(now.settings).toMatchObject({ ok: true, value: { baseUrl: null } });
      expect(now.keys).toEqual([]);
    }
    // So the next launch still shows the welcome screen: no key, no base URL.
    expect(await engine.call('getKeyStatus', {})).toMatchObject({ ok: true, value: { keySet: false } });
  });

  it('stores the key and base URL on a 403, saying the IP is not registered yet', async () => {
    const r = await test({ baseUrl: sim.url, key: ELSEWHERE });
    expect(r).toMatchObject({ ok: false, error: { code: 'ip_not_allowed' } });
    expect(!r.ok && r.error.message).toContain(IP_NOT_ALLOWED);
    expect(!r.ok && r.error.message).toContain('Blotter saved the base URL and the key');
    expect((await stored()).keys).toEqual([ELSEWHERE]);
    expect((await stored()).settings).toMatchObject({ ok: true, value: { baseUrl: sim.url } });
  });

  it('stores what was entered after a failure when the user chooses "Save anyway"', async () => {
    const r = await test({ baseUrl: sim.url, key: 'not-a-key-anyone-issued', saveAnyway: true });
    expect(r).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect((await stored()).keys).toEqual(['not-a-key-anyone-issued']);
    expect((await stored()).settings).toMatchObject({ ok: true, value: { baseUrl: sim.url } });
  });
});

describe('where the stored key may go (issue 11, item 3)', () => {
  it('never sends the stored key to a new base URL: a loopback attacker hears nothing', async () => {
    expect(await test({ baseUrl: sim.url, key: GOOD })).toMatchObject({ ok: true });
    const heard: string[] = [];
    const attacker = await serve((res) => res.end('{"crimes":[]}'), heard);

    // Any window may try: a test with the new address, or saving it and testing, or a sync.
    const direct = await test({ baseUrl: attacker });
    expect(direct).toMatchObject({ ok: false, error: { code: 'base_url_unconfirmed' } });
    expect(!direct.ok && direct.error.message).toContain(`not been confirmed for ${new URL(attacker).host}`);
    expect(await engine.call('getSettings', {})).toMatchObject({ value: { baseUrl: sim.url } });

    expect(await engine.call('updateSettings', { baseUrl: attacker })).toMatchObject({
      ok: true,
      value: { baseUrl: attacker, baseUrlConfirmed: false },
    });
    expect(await test({})).toMatchObject({ ok: false, error: { code: 'base_url_unconfirmed' } });
    const area = await engine.call('createArea', {
      name: 'Loop',
      shape: { kind: 'circle', lat: 41.88, lon: -87.63, radiusMi: 0.2 },
    });
    expect(area.ok).toBe(true);
    expect(await engine.call('startSync', {})).toMatchObject({
      ok: false,
      error: { code: 'base_url_unconfirmed' },
    });
    // The web host cannot confirm by a call: only by re-entering the key with the address.
    expect(await engine.call('confirmBaseUrl', { baseUrl: attacker })).toMatchObject({
      ok: false,
      error: { code: 'base_url_unconfirmed' },
    });
    expect(heard).toEqual([]);
    expect(secrets.entries.size).toBe(1);
  });

  it('takes the key to a new base URL when the key is entered again with it', async () => {
    // Another origin for the same simulator: localhost instead of 127.0.0.1.
    const first = sim.url.replace('127.0.0.1', 'localhost');
    expect(await test({ baseUrl: first, key: 'welcome-first-key-9', saveAnyway: true })).toMatchObject({
      ok: false,
    });
    expect(await test({ baseUrl: sim.url })).toMatchObject({ error: { code: 'base_url_unconfirmed' } });
    expect(await test({ baseUrl: sim.url, key: GOOD })).toMatchObject({ ok: true });
    expect(await test({})).toMatchObject({ ok: true });
  });

  it('refuses plain http to anything but loopback, before sending anything', async () => {
    const r = await test({ baseUrl: 'http://api.example.com', key: GOOD });
    expect(r).toMatchObject({ ok: false, error: { code: 'bad_input', issues: [{ path: 'baseUrl' }] } });
    expect(!r.ok && r.error.issues?.[0]?.message).toMatch(/must start with https:\/\//);
    expect(secrets.entries.size).toBe(0);
  });

  it('does not follow a redirect to another origin with the key', async () => {
    const heard: string[] = [];
    const attacker = await serve((res) => res.end('{"crimes":[]}'), heard);
    const api = await serve((res, url) => res.writeHead(307, { Location: `${attacker}${url}` }).end());
    const r = await test({ baseUrl: api, key: GOOD });
    expect(r).toMatchObject({ ok: false, error: { code: 'bad_response' } });
    expect(!r.ok && r.error.message).toContain('redirected the request to another address');
    expect(heard).toEqual([]);
  });
});

describe('the Electron host confirms a new base URL (after the main process asked the user)', () => {
  it('lets the key go to the confirmed address only', async () => {
    const electron = await createInProcessEngine({
      dataDir: makeTempDir().path,
      host: 'electron',
      version: 't',
      secrets: createMemorySecretStore(),
      logFile: null,
    });
    try {
      const heard: string[] = [];
      const moved = await serve((res, url) => {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"crimes":[]}');
        void url;
      }, heard);
      expect(await electron.call('testConnection', { baseUrl: sim.url, key: GOOD })).toMatchObject({
        ok: true,
      });
      await electron.call('updateSettings', { baseUrl: moved });
      expect(await electron.call('testConnection', {})).toMatchObject({
        error: { code: 'base_url_unconfirmed' },
      });
      expect(heard).toEqual([]);
      expect(await electron.call('confirmBaseUrl', { baseUrl: sim.url })).toMatchObject({
        error: { code: 'bad_input' },
      });
      expect(await electron.call('confirmBaseUrl', { baseUrl: moved })).toMatchObject({
        ok: true,
        value: { baseUrlConfirmed: true },
      });
      expect(await electron.call('testConnection', {})).toMatchObject({ ok: true });
      expect(heard).toHaveLength(1);
    } finally {
      await electron.close();
    }
  });
});

describe('checkConnection', () => {
  it('gives up on a server that never answers', async () => {
    const silent = await serve(() => undefined);
    const fetch = await createNodeFetch({});
    const started = Date.now();
    await expect(
      checkConnection({ baseUrl: silent, key: GOOD, ratePerMinute: 60, fetch, env: {}, timeoutMs: 500 }),
    ).rejects.toMatchObject({ code: 'offline', message: expect.stringMatching(/did not answer within 1 s/) });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('blames the proxy when HTTPS_PROXY points at nothing', async () => {
    const port = await closedPort();
    const env = {
      HTTPS_PROXY: `http://user:secret@127.0.0.1:${port}`,
      HTTP_PROXY: `http://127.0.0.1:${port}`,
    };
    const fetch = await createNodeFetch(env);
    const failure = checkConnection({ baseUrl: sim.url, key: GOOD, ratePerMinute: 60, fetch, env });
    await expect(failure).rejects.toMatchObject({
      code: 'offline',
      message: expect.stringMatching(
        new RegExp(`^Could not reach the proxy 127\\.0\\.0\\.1:${port} set in HTTPS_PROXY/HTTP_PROXY`),
      ),
    });
    await expect(failure).rejects.not.toMatchObject({ message: expect.stringContaining('secret') });
  });

  it('waits for a slot of the rate a sync is using, then says so', async () => {
    const fetch = await createNodeFetch({});
    const key = 'welcome-busy-key-0004';
    // One request a minute: the first test takes the slot, the second cannot get one in time.
    await checkConnection({ baseUrl: sim.url, key, ratePerMinute: 1, fetch, env: {} }).catch(() => undefined);
    await expect(
      checkConnection({ baseUrl: sim.url, key, ratePerMinute: 1, fetch, env: {}, slotWaitMs: 200 }),
    ).rejects.toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/whole rate/) });
  });
});
