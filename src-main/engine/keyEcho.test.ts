/**
 * A hostile server that echoes the API key inside its answers' text (addresses, links, v1 urls,
 * descriptions; plain and as JSON \u escapes) cannot get it into Blotter's database, an export or
 * the log: a loopback proxy in front of the simulator adds the key to every answer, the engine
 * syncs an area, fetches a description and exports CSV, and no byte of the data folder holds the
 * key, while the rows hold the "[redacted]" mark and the log says how many strings were scrubbed.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartExportOutput } from '../../src-shared/exports';
import { startSimulator, type Simulator } from '../../src-sim/index';
import { createLiveSource } from './api/liveSource';
import { withV1 } from './api/v1Source';
import { logFileOf } from './dataDir';
import { exportFinished } from './export/exportTesting';
import { KEY_ECHO_MARK, scrubKey } from './keyEcho';
import { connectTo, enterpriseKey, ok, openEngine } from './testing/engineFixture';

const KEY = 'echo-key-7f3a9c41d2';
const loop = { kind: 'circle' as const, lat: 41.8837, lon: -87.6289, radiusMi: 0.3 };

describe('scrubKey', () => {
  it('replaces the key in every string and object key, counts the strings, keeps the rest as it was', () => {
    const answer = {
      meta: { url: 'http://x/crimes.json?key=REDACTED' },
      incidents: [
        { cdid: 1, address: `1 Main St ${KEY}`, lat: 41.8, tags: [`a${KEY}b${KEY}`, 'plain'] },
        { cdid: 2, address: '2 Main St', link: `https://x/?k=${encodeURIComponent(KEY + '/')}` },
        { cdid: 3, address: '3 Main St' },
      ],
      [KEY]: true,
    };
    const { value, strings } = scrubKey(answer, KEY);
    expect(strings).toBe(4); // the address, a tag, the link's encoded key, an object key
    expect(JSON.stringify(value)).not.toContain(KEY);
    expect(value.incidents[0]).toEqual({
      cdid: 1,
      address: `1 Main St ${KEY_ECHO_MARK}`,
      lat: 41.8,
      tags: [`a${KEY_ECHO_MARK}b${KEY_ECHO_MARK}`, 'plain'],
    });
    expect(value.incidents[1]).toEqual({
      cdid: 2,
      address: '2 Main St',
      link: `https://x/?k=${KEY_ECHO_MARK}%2F`,
    });
    expect(value.incidents[2]).toBe(answer.incidents[2]); // untouched objects are the same objects
    expect(value.meta).toBe(answer.meta);
    expect(Object.keys(value)).toContain(KEY_ECHO_MARK);
    expect(scrubKey({ a: 'nothing here' }, KEY)).toEqual({ value: { a: 'nothing here' }, strings: 0 });
  });
});

let sim: Simulator;
let proxy: Server;
let proxyUrl: string;

/** The answer's text with the key added to its text fields; search answers as JSON \u escapes. */
function echo(text: string, key: string, escaped: boolean): string {
  const add = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(add);
    if (x === null || typeof x !== 'object') return x;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x))
      out[k] =
        typeof v === 'string' && ['address', 'description', 'link', 'url'].includes(k)
          ? k === 'link' || k === 'url'
            ? `${v}${v.includes('?') ? '&' : '?'}echo=${encodeURIComponent(key)}`
            : `${v} (${key})`
          : add(v);
    return out;
  };
  const json = JSON.stringify(add(JSON.parse(text)));
  if (!escaped) return json;
  const first = `\\u${key.charCodeAt(0).toString(16).padStart(4, '0')}`;
  return json.split(key).join(first + key.slice(1));
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 11, scale: 20_000, spanDays: 30, v1: true, keys: [enterpriseKey(KEY)] });
  proxy = createServer((req, res) => {
    const url = new URL(req.url ?? '/', sim.url);
    const key = url.searchParams.get('key') ?? /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    void fetch(url, {
      headers: { ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) },
    })
      .then(async (answer) => {
        const text = await answer.text();
        const body = answer.status === 200 && key ? echo(text, key, url.pathname === '/crimes.json') : text;
        res.writeHead(answer.status, { 'Content-Type': 'application/json' });
        res.end(body);
      })
      .catch(() => res.destroy());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await new Promise<void>((r) => proxy.close(() => r()));
  await sim.close();
});

describe('a server that echoes the key', () => {
  it('reaches no answer of the sync’s source, live or v1, search, page or detail', async () => {
    const options = { baseUrl: proxyUrl, key: KEY, fetch: (u: string, i: RequestInit) => fetch(u, i) };
    const source = withV1(createLiveSource(options), options);
    const search = await source.search({ ...loop, radius: 0.005, maxRecords: 500, sortOrder: 'DESC' });
    expect(search.incidents.length).toBeGreaterThan(0);
    expect(search.incidents[0]?.address).toContain(KEY_ECHO_MARK);
    const page = await source.page!({ lat: loop.lat, lon: loop.lon, radiusMi: 0.3, limit: 100 });
    expect(page.incidents.length).toBeGreaterThan(0);
    const detail = await source.detail(search.incidents[0]!.cdid);
    expect(detail.incident.description).toContain(KEY_ECHO_MARK);
    for (const answer of [search, page, detail]) expect(JSON.stringify(answer)).not.toContain(KEY);
  }, 30_000);

  it('reaches no answer of the live source on its own either (the scrub is in the one request-and-read step)', async () => {
    const source = createLiveSource({ baseUrl: proxyUrl, key: KEY, fetch: (u, i) => fetch(u, i) });
    const search = await source.search({ ...loop, radius: 0.005, maxRecords: 500, sortOrder: 'DESC' });
    expect(search.incidents[0]?.address).toContain(KEY_ECHO_MARK);
    const detail = await source.detail(search.incidents[0]!.cdid);
    expect(detail.incident.description).toContain(KEY_ECHO_MARK);
    for (const answer of [search, detail]) expect(JSON.stringify(answer)).not.toContain(KEY);
  }, 30_000);

  it('is in no byte of the database, an export or the log after a sync, a description and a CSV export', async () => {
    const fx = openEngine({ scheduler: false });
    try {
      await connectTo(fx.engine, proxyUrl, KEY);
      const area = await ok(fx.engine.dispatch('createArea', { name: 'Loop', shape: loop }));
      await ok(fx.engine.dispatch('startSync', { areaIds: [area.id] }));
      const finished = await fx.waitFor(
        (e): e is Extract<typeof e, { type: 'syncProgress' }> =>
          e.type === 'syncProgress' && (e.state === 'done' || e.state === 'failed'),
        60_000,
      );
      expect(finished.state).toBe('done');
      const cdid = fx.engine.context.db.prepare('SELECT cdid FROM incidents LIMIT 1').pluck().get() as number;
      const detail = await fx.call<{ description: string }>('fetchIncidentDetail', { cdid });
      expect(detail.description).toContain(KEY_ECHO_MARK);
      const started = await fx.call<StartExportOutput>('startExport', {
        format: 'csv',
        filters: { preset: 'all' },
      });
      const done = await fx.waitFor(exportFinished(started.jobId), 30_000);
      expect(done.state).toBe('done');
      const csv = readFileSync(done.file?.path as string, 'utf8');
      expect(csv).toContain(KEY_ECHO_MARK);

      const marked = fx.engine.context.db
        .prepare('SELECT count(*) FROM incidents WHERE address LIKE ?')
        .pluck()
        .get(`%${KEY_ECHO_MARK}%`) as number;
      expect(marked).toBeGreaterThan(0);
      const log = readFileSync(logFileOf(fx.tmp.path), 'utf8');
      expect(log).toMatch(/the service echoed the API key in its answer.*"strings":\d+/);
      await fx.engine.close();
      const files = readdirSync(fx.tmp.path, { recursive: true })
        .map((name) => path.join(fx.tmp.path, String(name)))
        .filter((file) => statSync(file).isFile());
      expect(files.some((f) => f.endsWith('.sqlite') || f.endsWith('.db'))).toBe(true);
      for (const file of files) {
        const bytes = readFileSync(file);
        expect(bytes.includes(KEY), file).toBe(false);
        expect(bytes.includes(Buffer.from(KEY, 'utf16le')), file).toBe(false);
      }
    } finally {
      await fx.close();
    }
  }, 120_000);
});
