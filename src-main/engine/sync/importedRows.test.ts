/**
 * Issue 11, item 10: rows a user imported inside an area and its window are not the API's to take
 * away. Imported through the engine's own calls, then synced (backfill and refresh) against the
 * simulator, they stay unremoved and keep source 'import'.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../src-sim/index';
import { logFileOf } from '../dataDir';
import { createEngine, type Engine } from '../engine';
import { configureLogging } from '../log';
import { createMemorySecretStore } from '../secrets/memorySecretStore';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { connectionOf } from './engineSync';

const KEY = 'imported-rows-key-10';
const loop = { kind: 'circle' as const, lat: 41.8837, lon: -87.6289, radiusMi: 0.4 };
let sim: Simulator;
let tmp: TempDir;
let engine: Engine;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 9,
    scale: 20_000,
    spanDays: 40,
    keys: [{ key: KEY, plan: 'enterprise', ips: ['127.0.0.1', '::1'], ratePerMinute: 6000, windowDays: 30 }],
  });
  tmp = makeTempDir();
  configureLogging({ file: logFileOf(tmp.path), stderr: false });
  engine = createEngine({
    dataDir: tmp.path,
    secrets: createMemorySecretStore(),
    host: 'web',
    version: 't',
    emit: () => undefined,
    scheduler: false,
  });
});
afterAll(async () => {
  await engine.close();
  configureLogging({ file: null, stderr: true });
  tmp.remove();
  await sim.close();
});

async function ok<T>(
  p: Promise<{ ok: true; value: T } | { ok: false; error: { code: string; message: string } }>,
): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

/** Local wall time in Chicago `days` ago, as the export writes occurred_local. */
function chicagoLocal(days: number): string {
  const at = new Date(sim.clock.nowMs() - days * 86_400_000);
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/Chicago',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const v = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${v('year')}-${v('month')}-${v('day')}T${v('hour')}:${v('minute')}`;
}

it('never marks imported rows removed, and they keep saying they were imported', async () => {
  await ok(
    engine.dispatch('updateSettings', {
      baseUrl: sim.url,
      plan: 'enterprise',
      ratePerMinute: 6000,
      windowDays: 30,
    }),
  );
  await ok(engine.dispatch('setApiKey', { key: KEY }));
  const area = await ok(engine.dispatch('createArea', { name: 'Loop', shape: loop }));

  const cdids = [990_000_001, 990_000_002, 990_000_003];
  const csv = [
    'cdid,type,occurred_local,timezone,address,lat,lon',
    ...cdids.map(
      (cdid, i) =>
        `${cdid},Theft,${chicagoLocal(4 + i)},America/Chicago,1${i}0 W Imported St,${loop.lat},${loop.lon}`,
    ),
  ].join('\n');
  const file = path.join(tmp.path, 'mine.csv');
  writeFileSync(file, csv);
  const preview = await ok(engine.dispatch('previewImport', { source: { path: file } }));
  await ok(engine.dispatch('runImport', { importId: preview.importId }));

  const service = engine.context.services.sync;
  for (const pass of ['backfill', 'refresh']) {
    const record = service.areas.list().find((a) => a.id === area.id)!;
    const [summary] = await service.syncAreas(
      [record],
      await connectionOf(engine.context, engine.context.services.fetch),
      {
        depth: 'deep',
      },
    );
    expect(summary?.state, pass).toBe('done');
    expect(summary?.kind, pass).toBe(pass);
    const rows = engine.context.db
      .prepare(
        `SELECT cdid, source, removed_at, removed_reason FROM incidents WHERE cdid IN (${cdids.join(',')})`,
      )
      .all();
    expect(rows, pass).toEqual(
      cdids.map((cdid) => ({ cdid, source: 'import', removed_at: null, removed_reason: null })),
    );
  }
});
