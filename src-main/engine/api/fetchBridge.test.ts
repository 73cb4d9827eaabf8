import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureLogging, unregisterSecret } from '../log';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { ApiError } from './apiError';
import {
  createWorkerFetch,
  serveHostFetch,
  type FetchReply,
  type HostFetch,
  type HostFetchRequest,
} from './fetchBridge';
import { createLiveSource } from './liveSource';

const KEY = 'bridge-secret-key-77';
const BASE = 'https://api.example.test';

/** Both halves joined as the worker port would join them (asynchronously, like postMessage). */
function bridged(hostFetch: HostFetch, timeoutMs?: number) {
  const later = (fn: () => void): void => void setImmediate(fn);
  const worker = createWorkerFetch(
    (m) =>
      later(() => {
        if ('fetch' in m) host.request(m.fetch);
        else host.abort(m.fetchAbort.id);
      }),
    { timeoutMs },
  );
  const host = serveHostFetch(hostFetch, (m: { fetchReply: FetchReply }) =>
    later(() => worker.receive(m.fetchReply)),
  );
  return { worker, host };
}

let tmp: TempDir;
let logFile: string;
beforeEach(() => {
  tmp = makeTempDir();
  logFile = `${tmp.path}/bridge.log`;
  configureLogging({ file: logFile, stderr: false, level: 'debug' });
});
afterEach(() => {
  configureLogging({ file: null, stderr: true, level: 'info' });
  tmp.remove();
});

describe('the fetch bridge', () => {
  it('sends the request to the host and builds a standard Response from its answer', async () => {
    const seen: HostFetchRequest[] = [];
    const { worker } = bridged(async (req) => {
      seen.push(req);
      return {
        status: 200,
        statusText: 'OK',
        headers: [['content-type', 'application/json']],
        body: JSON.stringify({ crimes: [] }),
      };
    });
    const source = createLiveSource({ baseUrl: BASE, key: KEY, fetch: worker.fetch });
    const r = await source.search({
      lat: 41.88,
      lon: -87.63,
      radius: 0.01,
      maxRecords: 500,
      sortOrder: 'ASC',
    });
    expect(r.incidents).toEqual([]);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'GET', headers: { Accept: 'application/json' } });
    expect(seen[0]?.url).toContain(`${BASE}/crimes.json?`);
    expect(seen[0]?.signal).toBeInstanceOf(AbortSignal);
  });

  it('carries bytes, statuses without a body, and the headers the client reads', async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 255]);
    const answers = [
      {
        status: 200,
        statusText: 'OK',
        headers: [['content-type', 'image/png']] as [string, string][],
        body: png,
      },
      { status: 304, statusText: 'Not Modified', headers: [['etag', '"x"']] as [string, string][], body: '' },
      {
        status: 429,
        statusText: 'Too Many',
        headers: [['retry-after', '7']] as [string, string][],
        body: '',
      },
    ];
    const { worker } = bridged(async () => answers.shift()!);
    const tile = await worker.fetch(`${BASE}/t.png`, {});
    expect(new Uint8Array(await tile.arrayBuffer())).toEqual(png);
    const notModified = await worker.fetch(`${BASE}/t.png`, { headers: { 'If-None-Match': '"x"' } });
    expect([notModified.status, notModified.headers.get('etag'), notModified.body]).toEqual([
      304,
      '"x"',
      null,
    ]);
    const source = createLiveSource({ baseUrl: BASE, key: KEY, fetch: worker.fetch });
    const e = await source.detail(5).catch((error: unknown) => error);
    expect(e).toBeInstanceOf(ApiError);
    expect([(e as ApiError).code, (e as ApiError).details.retryAfterSeconds]).toEqual(['rate_limited', 7]);
  });

  it('passes an abort to the host and rejects at once', async () => {
    let hostSignal: AbortSignal | undefined;
    const { worker } = bridged(
      (req) =>
        new Promise(() => {
          hostSignal = req.signal;
        }),
    );
    const controller = new AbortController();
    const pending = worker.fetch(`${BASE}/crimes/1.json?key=${KEY}`, { signal: controller.signal });
    await vi.waitFor(() => expect(hostSignal).toBeDefined());
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await vi.waitFor(() => expect(hostSignal?.aborted).toBe(true));
  });

  it('times out when the host never answers, as an offline failure', async () => {
    let hostSignal: AbortSignal | undefined;
    const { worker } = bridged(
      (req) =>
        new Promise(() => {
          hostSignal = req.signal;
        }),
      50,
    );
    const source = createLiveSource({ baseUrl: BASE, key: KEY, fetch: worker.fetch });
    const e = (await source.detail(9).catch((error: unknown) => error)) as ApiError;
    expect([e.code, e.message]).toEqual(['offline', 'The service did not answer in time.']);
    await vi.waitFor(() => expect(hostSignal?.aborted).toBe(true));
  });

  it('reports a host failure as offline, and never puts the key in a message or a log line', async () => {
    const { worker } = bridged(async (req) => {
      throw new TypeError(`net::ERR_PROXY_CONNECTION_FAILED while fetching ${req.url}`);
    });
    const source = createLiveSource({ baseUrl: BASE, key: KEY, fetch: worker.fetch });
    unregisterSecret(KEY); // the host thread knows no key: redaction must not depend on it
    const e = (await source.detail(3).catch((error: unknown) => error)) as ApiError;
    expect(e.code).toBe('offline');
    expect(e.message).toMatch(/ERR_PROXY_CONNECTION_FAILED/);
    expect(e.message).not.toContain(KEY);
    const log = readFileSync(logFile, 'utf8');
    expect(log).toMatch(/a bridged request failed/);
    expect(log).toContain(`GET ${BASE}/crimes/3.json`);
    expect(log).not.toContain(KEY);
    expect(log).not.toMatch(/key=(?!REDACTED)/);
  });

  it('fails requests in flight when the engine closes', async () => {
    const { worker } = bridged(() => new Promise(() => undefined));
    const pending = worker.fetch(`${BASE}/x`, {});
    worker.close();
    await expect(pending).rejects.toThrow(/shutting down/);
    await expect(worker.fetch(`${BASE}/y`, {})).rejects.toThrow(/shutting down/);
  });
});
