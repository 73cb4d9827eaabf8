/**
 * The engine's requests through a fake of Electron's net.fetch: what net.fetch receives, what the
 * engine gets back (a standard Response built in the worker's half of the bridge), and that no log
 * line carries the key from the URL's query.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../engine/api/apiError';
import { createWorkerFetch, serveHostFetch } from '../engine/api/fetchBridge';
import { createLiveSource } from '../engine/api/liveSource';
import { configureLogging, unregisterSecret } from '../engine/log';
import { makeTempDir, type TempDir } from '../engine/testing/tempDir';
import { netFetchBridge, type NetLike } from './netFetchBridge';

const KEY = 'office-key-5150';
const BASE = 'https://crime.example.test/api';
const crime = {
  type: 'Theft',
  address: '100 W Main St',
  lat: 41.88,
  lon: -87.63,
  cdid: 42,
  link: 'https://crime.example.test/42',
  date: '05/20/25 03:04 PM',
  description: 'A bicycle was taken.',
};

/** The worker's fetch, joined to the host's half as over the worker port. */
function engineFetchVia(net: NetLike) {
  const worker = createWorkerFetch((m) =>
    setImmediate(() => ('fetch' in m ? host.request(m.fetch) : host.abort(m.fetchAbort.id))),
  );
  const host = serveHostFetch(netFetchBridge(net), (m) => setImmediate(() => worker.receive(m.fetchReply)));
  return worker.fetch;
}

let tmp: TempDir;
let logFile: string;
beforeEach(() => {
  tmp = makeTempDir();
  logFile = `${tmp.path}/main.log`;
  configureLogging({ file: logFile, stderr: false, level: 'debug' });
});
afterEach(() => {
  configureLogging({ file: null, stderr: true, level: 'info' });
  tmp.remove();
});

describe('net.fetch bridge', () => {
  it('performs the engine’s API requests with net.fetch', async () => {
    const fetch = vi.fn<NetLike['fetch']>(
      async () =>
        new Response(JSON.stringify(crime), { status: 200, headers: { 'Content-Type': 'application/json' } }),
    );
    const source = createLiveSource({ baseUrl: BASE, key: KEY, fetch: engineFetchVia({ fetch }) });
    unregisterSecret(KEY); // the main thread never learns the key: its logs rely on the URL rules
    const r = await source.detail(42);
    expect(r.incident.description).toBe('A bicycle was taken.');
    expect(r.meta.url).toBe(`${BASE}/crimes/42.json?key=REDACTED`);
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(`${BASE}/crimes/42.json?key=${KEY}`);
    expect(init).toMatchObject({ method: 'GET', headers: { Accept: 'application/json' } });
    expect(init.signal).toBeInstanceOf(AbortSignal);
    const log = readFileSync(logFile, 'utf8');
    expect(log).toContain(`GET ${BASE}/crimes/42.json`);
    expect(log).not.toContain(KEY);
  });

  it('aborts net.fetch when the engine gives up on a request', async () => {
    let seen: AbortSignal | undefined;
    const fetch = vi.fn<NetLike['fetch']>(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          seen = init.signal;
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    );
    const source = createLiveSource({
      baseUrl: BASE,
      key: KEY,
      fetch: engineFetchVia({ fetch }),
      timeoutMs: 50,
    });
    const e = (await source
      .search({ lat: 1, lon: 2, radius: 0.01, maxRecords: 500, sortOrder: 'ASC' })
      .catch((error: unknown) => error)) as ApiError;
    expect([e.code, e.message]).toEqual(['offline', 'The service did not answer in time.']);
    await vi.waitFor(() => expect(seen?.aborted).toBe(true));
  });

  it('answers offline when net.fetch fails, and logs the failure without the key', async () => {
    const fetch = vi.fn<NetLike['fetch']>(async (url) => {
      throw new Error(`net::ERR_NAME_NOT_RESOLVED (${url})`);
    });
    const source = createLiveSource({ baseUrl: BASE, key: KEY, fetch: engineFetchVia({ fetch }) });
    unregisterSecret(KEY);
    const e = (await source.detail(7).catch((error: unknown) => error)) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect(e.code).toBe('offline');
    expect(e.message).toMatch(/ERR_NAME_NOT_RESOLVED/);
    expect(e.message).not.toContain(KEY);
    const log = readFileSync(logFile, 'utf8');
    expect(log).toMatch(/a bridged request failed/);
    expect(log).not.toContain(KEY);
  });
});
