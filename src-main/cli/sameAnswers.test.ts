/**
 * One filter engine, one export pipeline, every host (issue 12, items 3 and 4): the same filter
 * through the app's calls (engine dispatch), the web host over HTTP and the CLI as a process gives
 * the same counts, the same file bytes (the manifests differ only in their creation time) and the
 * same status figures. Type names match case-insensitively in every host.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallInput, CallName, EngineEvent, Result } from '../../src-shared/contract';
import type { Filters } from '../../src-shared/filters';
import { decodeWire } from '../../src-shared/wire';
import { startSimulator, type Simulator } from '../../src-sim/index';
import { createInProcessEngine, type EngineHandle } from '../engine/index';
import { createMemorySecretStore } from '../engine/secrets/memorySecretStore';
import { makeTempDir, type TempDir } from '../engine/testing/tempDir';
import { startWebHost, type WebHost } from '../web/server';
import { ROOT, runCli, syncArgs } from './cliTesting';

const KEY = 'cli-same-answers-key-12';
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;
const LOOP = { lat: 41.8837, lon: -87.6289, radiusMi: 0.8 };
let sim: Simulator;
let dir: TempDir;
let engine: EngineHandle;
let web: WebHost;
let cookie = '';
const events: EngineEvent[] = [];

const cli = (args: string[]) => runCli(KEY, [...args, '--data-dir', dir.path]);

/** Sends one HTTP request to the web host, signed in. */
function http(pathname: string, body?: unknown): Promise<{ status: number; body: Buffer; cookie?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: web.port,
        path: pathname,
        // A connection of its own: Node's kept-alive one may be closed by the host's idle timeout
        // (5 s, an export apart) just as it is reused — ECONNRESET under load.
        agent: false,
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          Host: `127.0.0.1:${web.port}`,
          ...(cookie ? { Cookie: cookie } : {}),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            cookie: res.headers['set-cookie']?.[0]?.split(';')[0],
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function overHttp<K extends CallName>(name: K, input: CallInput<K>) {
  const answer = await http(`/api/call/${name}`, input);
  const result = decodeWire(answer.body.toString('utf8')) as Result<unknown>;
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
  return result.value as Awaited<ReturnType<typeof call<K>>>;
}

async function call<K extends CallName>(name: K, input: CallInput<K>) {
  const result = await engine.call(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
  return result.value;
}

/** Waits for the export job's last event. */
async function finished(jobId: string) {
  for (;;) {
    const last = events.find(
      (e): e is Extract<EngineEvent, { type: 'exportProgress' }> =>
        e.type === 'exportProgress' && e.jobId === jobId && e.state !== 'running',
    );
    if (last) {
      expect(last.state, last.error?.message).toBe('done');
      return last;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The manifest beside `file`, without the one field that must differ: when it was written. */
function manifestOf(file: string): Record<string, unknown> {
  const m = JSON.parse(readFileSync(file.replace(/\.(csv|geojson)$/, '.manifest.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  delete m.createdAt;
  return m;
}

beforeAll(async () => {
  sim = await startSimulator({
    seed: 5,
    scale: 20_000,
    spanDays: 40,
    keys: [{ key: KEY, plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: 6000, windowDays: 30 }],
  });
  dir = makeTempDir('blotter-same-');
  const synced = await runCli(KEY, syncArgs(dir.path, sim.url, `${LOOP.lat},${LOOP.lon},${LOOP.radiusMi}`));
  expect(synced.code, synced.stderr).toBe(0);
  // The app's engine on the same folder, as the web host runs it (no background sync in a test).
  engine = await createInProcessEngine({
    dataDir: dir.path,
    host: 'web',
    version: VERSION,
    secrets: createMemorySecretStore(),
    logFile: null,
    scheduler: false,
  });
  engine.onEvent((e) => events.push(e));
  const renderer = path.join(dir.path, 'renderer');
  mkdirSync(renderer);
  writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>Blotter</title>');
  web = await startWebHost({ engine, rendererDir: renderer });
  const token = new URL(web.url).searchParams.get('token') ?? '';
  cookie = (await http(`/?token=${token}`)).cookie ?? '';
  expect(cookie).not.toBe('');
}, 180_000);

afterAll(async () => {
  await web?.close();
  await engine?.close();
  await sim?.close();
  dir?.remove();
});

/** The CLI's flags and the app's filter state for the same question (the manifest records it as given). */
const CASES: { name: string; flags: string[]; filters: Filters }[] = [
  { name: 'types, upper case', flags: ['--types', 'THEFT'], filters: { types: ['THEFT'] } },
  {
    name: 'types and a circle',
    flags: ['--types', 'theft,assault', '--area', '41.88,-87.63,0.3'],
    filters: { types: ['theft', 'assault'], area: { circle: { lat: 41.88, lon: -87.63, radiusMi: 0.3 } } },
  },
  {
    name: 'hours past midnight, weekend, words and a polygon',
    flags: ['--hours', '22-6', '--weekdays', 'sat,sun', '--text', 'block', '--polygon', 'POLYGON'],
    filters: {
      hours: [22, 6],
      weekdays: [6, 0],
      text: 'block',
      area: {
        polygon: [
          [41.87, -87.64],
          [41.87, -87.62],
          [41.9, -87.62],
          [41.9, -87.64],
        ],
      },
    },
  },
  {
    name: 'a saved area, removed incidents included',
    flags: ['--area-id', '1', '--include-removed'],
    filters: { area: { areaId: 1 }, includeRemoved: true },
  },
];

describe('the same filter in every host', () => {
  it.each(CASES)(
    '$name: the CLI, the app’s calls and the web host agree',
    async ({ name, flags, filters }) => {
      const slug = name.replace(/\W+/g, '-');
      const cliFile = path.join(dir.path, 'cli', `${slug}.csv`);
      const appFile = path.join(dir.path, 'app', `${slug}.csv`);
      mkdirSync(path.dirname(cliFile), { recursive: true });
      mkdirSync(path.dirname(appFile), { recursive: true });

      const polygon = path.join(dir.path, 'polygon.geojson');
      const area = filters.area && 'polygon' in filters.area ? filters.area.polygon : [];
      writeFileSync(
        polygon,
        JSON.stringify({ type: 'Polygon', coordinates: [[...area, area[0]].map((p) => p && [p[1], p[0]])] }),
      );
      const args = flags.map((f) => (f === 'POLYGON' ? polygon : f));
      const ran = await cli(['export', '--format', 'csv', '--out', cliFile, ...args]);
      expect(ran.code, ran.stderr).toBe(0);
      const cliCount = Number(/export: (\d+) incidents written/.exec(ran.stderr)?.[1]);

      // The app's calls: the count the filter bar shows, and the export job with the host's file.
      const { total } = await call('countIncidents', { filters });
      expect(total).toBeGreaterThan(0);
      const started = await call('startExport', { format: 'csv', filters, destination: { path: appFile } });
      await finished(started.jobId);
      expect(cliCount).toBe(total);
      expect(readFileSync(cliFile)).toEqual(readFileSync(appFile));
      expect(manifestOf(cliFile)).toEqual(manifestOf(appFile));

      // The web host over HTTP: the same count, and the same bytes downloaded from its exports/.
      expect((await overHttp('countIncidents', { filters })).total).toBe(total);
      const viaWeb = await overHttp('startExport', { format: 'csv', filters });
      await finished(viaWeb.jobId);
      const download = await http(`/api/download/${encodeURIComponent(viaWeb.fileName)}`);
      expect(download.status).toBe(200);
      expect(download.body).toEqual(readFileSync(cliFile));
    },
  );

  it('--types THEFT, --types theft and the app’s Theft are one type', async () => {
    const upper = await cli(['export', '--format', 'geojson', '--types', 'THEFT']);
    const lower = await cli(['export', '--format', 'geojson', '--types', 'theft']);
    expect(upper.code, upper.stderr).toBe(0);
    expect(lower.code, lower.stderr).toBe(0);
    const features = (JSON.parse(upper.stdout) as { features: { properties: { type: string } }[] }).features;
    expect(features.length).toBe((await call('countIncidents', { filters: { types: ['Theft'] } })).total);
    expect(features.length).toBeGreaterThan(0);
    for (const f of features) expect(f.properties.type).toBe('Theft');
    expect(upper.stdout).toBe(lower.stdout);
  });

  it('status says what the web host answers', async () => {
    const ran = await cli(['status']);
    expect(ran.code, ran.stderr).toBe(0);
    const summary = await overHttp('getArchiveSummary', {});
    expect(ran.stdout).toContain(`Incidents: ${summary.total} stored (${summary.removed} marked removed)`);
    const { areas } = await overHttp('listAreas', {});
    expect(areas).toHaveLength(1);
    for (const a of areas) {
      const live = (await overHttp('countIncidents', { filters: { area: { areaId: a.id } } })).total;
      const all = (
        await overHttp('countIncidents', { filters: { area: { areaId: a.id }, includeRemoved: true } })
      ).total;
      expect(ran.stdout).toContain(`Area ${a.id} "${a.name}"`);
      expect(ran.stdout).toContain(`incidents inside: ${live} (plus ${all - live} removed)`);
      const cov = await overHttp('coverageBand', { areaId: a.id });
      expect(ran.stdout).toContain(`coverage: ${cov.totals.complete} days complete`);
    }
  });
});
