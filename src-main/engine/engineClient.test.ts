import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedDatabase } from '../../bench/seed';
import type { EngineEvent } from '../../src-shared/contract';
import { decodeWire, encodeWireParts } from '../../src-shared/wire';
import { startSimulator } from '../../src-sim/index';
import type { HostFetch } from './api/fetchBridge';
import { dbFileOf, logFileOf } from './dataDir';
import { defaultWorkerPath, EngineStartError, startEngine } from './engineClient';
import type { EngineHandle } from './engineHandle';
import { SCHEMA_VERSION } from './store/database';
import { requireKeychain } from './testing/requireKeychain';
import { makeTempDir, type TempDir } from './testing/tempDir';

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

/** Records the gaps between ticks of a 5 ms timer on this thread: a blocked event loop does not tick. */
function watchEventLoop(): { stop(): { ticks: number; elapsed: number; median: number; max: number } } {
  const started = performance.now();
  const gaps: number[] = [];
  let last = started;
  const timer = setInterval(() => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }, 5);
  return {
    stop() {
      clearInterval(timer);
      gaps.sort((a, b) => a - b);
      const at = (q: number): number => gaps[Math.floor(q * (gaps.length - 1))] ?? Infinity;
      return { ticks: gaps.length, elapsed: performance.now() - started, median: at(0.5), max: at(1) };
    },
  };
}

describe('engine in a worker thread', () => {
  let tmp: TempDir;
  let engine: EngineHandle | undefined;
  beforeAll(requireKeychain);
  beforeEach(() => {
    tmp = makeTempDir();
  });
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
    tmp.remove();
  });

  it('runs calls and pushes events from a real worker, without blocking the main thread', async () => {
    const loop = watchEventLoop();
    engine = await startEngine({ dataDir: tmp.path, host: 'web', version: '9.9.9' });
    const events: EngineEvent[] = [];
    engine.onEvent((event) => events.push(event));

    expect(await engine.call('getAppInfo', {})).toEqual({
      ok: true,
      value: { version: '9.9.9', host: 'web', dataDir: tmp.path },
    });
    expect(await engine.call('getSettings', {})).toMatchObject({ ok: true, value: { plan: 'developer' } });
    const updates = await Promise.all(
      Array.from({ length: 200 }, (_, i) => engine!.call('updateSettings', { windowDays: i + 1 })),
    );
    expect(updates.every((r) => r.ok)).toBe(true);
    expect(await engine.call('setApiKey', { key: 'worker-key-0042' })).toMatchObject({
      ok: true,
      value: { keySet: true, keychain: { available: true } },
    });
    expect(await engine.call('getKeyStatus', {})).toMatchObject({ ok: true, value: { keySet: true } });
    expect(await engine.call('removeApiKey', {})).toMatchObject({ ok: true, value: { keySet: false } });
    const { ticks, elapsed, median, max } = loop.stop();

    // 200 updates, and one more when setApiKey binds the key to the base URL in use.
    expect(events.filter((e) => e.type === 'settingsChanged')).toHaveLength(201);
    expect(
      events
        .filter((e) => e.type === 'keyStatusChanged')
        .map((e) => e.type === 'keyStatusChanged' && e.status.keySet),
    ).toEqual([true, false]);
    // Compiling the worker, opening SQLite, migrating, loading keytar and 200 writes all happened
    // in the worker: the main thread kept ticking throughout (a blocked loop would not tick at all).
    // Single gaps can be long on a loaded 2-core machine, so the check is on the typical gap.
    expect(elapsed).toBeGreaterThan(200);
    expect(ticks).toBeGreaterThan(elapsed / 5 / 4);
    expect(median).toBeLessThan(20);
    expect(max).toBeLessThan(1_000);
    expect(await engine.call('nope' as never, {})).toMatchObject({
      ok: false,
      error: { code: 'unknown_call' },
    });
  });

  it('answers the web host’s map points with the base64 made in the worker, as bytes (wireTypedArrays)', async () => {
    seedDatabase(dbFileOf(tmp.path), { count: 1500, seed: 3, endDay: '2025-03-14', days: 200 });
    engine = await startEngine({ dataDir: tmp.path, host: 'web', version: '1', wireTypedArrays: true });
    const answer = await engine.call('getMapPoints', { filters: { preset: 'all' } });
    const lat = (answer as unknown as { value: { lat: { $typed: string; b64: unknown } } }).value.lat;
    expect(lat.$typed).toBe('Float32Array');
    expect(lat.b64).toBeInstanceOf(Uint8Array); // no string of it on the host's side
    const sent = decodeWire(Buffer.concat(encodeWireParts(answer)).toString('utf8')) as {
      ok: true;
      value: { lat: Float32Array; cdid: Float64Array };
    };
    expect(sent.value.lat).toBeInstanceOf(Float32Array);
    expect(sent.value.lat.length).toBeGreaterThan(1400); // the seeded incidents with a location
    expect(new Set(sent.value.cdid).size).toBe(sent.value.lat.length);
    expect(sent.value.lat.every((v) => v > 20 && v < 60)).toBe(true);
  });

  it('closes cleanly: the database is closed, and later calls are refused', async () => {
    engine = await startEngine({ dataDir: tmp.path, host: 'web', version: '1' });
    await engine.close();
    await engine.close(); // idempotent
    expect(await engine.call('getSettings', {})).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    const db = new Database(dbFileOf(tmp.path)); // WAL checkpointed on close: readable, latest schema
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
    expect(readFileSync(logFileOf(tmp.path), 'utf8')).toMatch(/INFO {2}\[worker\] engine started/);
  });

  it('rejects startEngine with the clear message when the database is from a newer Blotter', async () => {
    const db = new Database(dbFileOf(tmp.path));
    db.pragma('user_version = 42');
    db.close();
    const error = await startEngine({ dataDir: tmp.path, host: 'electron', version: '1' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EngineStartError);
    expect((error as Error).name).toBe('DatabaseTooNewError');
    expect((error as Error).message).toBe(
      `This data file was written by a newer version of Blotter (schema 42; this app knows up to ${SCHEMA_VERSION}). ` +
        'Update Blotter, or open a different data folder with --data-dir.',
    );
  });

  it('rejects startEngine when the data folder is a file', async () => {
    await expect(
      startEngine({ dataDir: here('./engineClient.test.ts'), host: 'web', version: '1' }),
    ).rejects.toThrow(/is a file/);
  });

  it('sends API requests through the host’s fetch when given one (Electron: net.fetch)', async () => {
    const key = 'bridge-worker-key-0815';
    const sim = await startSimulator({
      seed: 5,
      scale: 'tiny',
      keys: [{ key, plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: 6000, windowDays: 30 }],
    });
    try {
      const calls: { url: string; method: string }[] = [];
      const hostFetch: HostFetch = async ({ url, method, headers, signal }) => {
        calls.push({ url, method });
        const r = await fetch(url, { method, headers, signal });
        return { status: r.status, statusText: r.statusText, headers: [...r.headers], body: await r.text() };
      };
      engine = await startEngine({ dataDir: tmp.path, host: 'web', version: '1', hostFetch });
      expect(await engine.call('updateSettings', { baseUrl: sim.url })).toMatchObject({ ok: true });
      expect(await engine.call('setApiKey', { key })).toMatchObject({ ok: true });
      const incident = sim.groundTruth({ lat: 41.8837, lon: -87.6289, radiusMi: 2, key })[0];
      expect(incident).toBeDefined();
      const detail = await engine.call('fetchIncidentDetail', { cdid: incident!.cdid });
      expect(detail).toEqual({
        ok: true,
        value: { cdid: incident!.cdid, description: incident!.description, fetchedAt: expect.any(Number) },
      });
      expect(calls).toEqual([{ url: `${sim.url}/crimes/${incident!.cdid}.json?key=${key}`, method: 'GET' }]);
      expect(await engine.call('removeApiKey', {})).toMatchObject({ ok: true });
    } finally {
      await sim.close();
    }
  });

  it('answers pending calls with `internal` when the worker crashes', async () => {
    engine = await startEngine({
      dataDir: tmp.path,
      host: 'web',
      version: '1',
      workerPath: here('./testing/crashingWorker.ts'),
    });
    expect(await engine.call('getSettings', {})).toMatchObject({
      ok: false,
      error: { code: 'internal', message: expect.stringMatching(/stopped unexpectedly/) },
    });
    expect(await engine.call('getSettings', {})).toMatchObject({ ok: false, error: { code: 'internal' } });
  });
});

describe('defaultWorkerPath', () => {
  it('uses worker.ts from source and engineWorker.js beside the bundled main', () => {
    expect(defaultWorkerPath('file:///app/src-main/engine/engineClient.ts')).toBe(
      '/app/src-main/engine/worker.ts',
    );
    expect(defaultWorkerPath('file:///app/out/main/index.js')).toBe('/app/out/main/engineWorker.js');
  });
});
