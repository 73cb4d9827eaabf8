/**
 * Demo mode end to end below the UI: the demo gets its own folder with a marker, its key in the
 * keychain (or in memory when there is none), an area over a simulated city and a finished sync
 * through the normal engine; removing it deletes the folder and the keychain entry and returns to
 * the real folder.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createKeytarSecretStore } from '../engine/secrets/keytarSecretStore';
import { createMemorySecretStore } from '../engine/secrets/memorySecretStore';
import { apiKeyAccount } from '../engine/secrets/secretStore';
import { requireKeychain } from '../engine/testing/requireKeychain';
import { makeTempDir, type TempDir } from '../engine/testing/tempDir';
import { startDemoHost, type DemoHost } from './demoHost';
import { MARKER_FILE, readMarker } from './marker';
import { inProcessEngines, profileIdOf, syncFinished, workerEngines } from './testing';

const FAST = { latencyMs: 0 };

let tmp: TempDir;
let host: DemoHost | null = null;

afterEach(async () => {
  await host?.close();
  host = null;
  tmp?.remove();
});

function realDir(): string {
  tmp = makeTempDir('blotter-demo-test-');
  return path.join(tmp.path, 'Blotter');
}

describe('demo mode on the real keychain', () => {
  beforeAll(requireKeychain);

  it('starts from a running app, syncs a simulated city, and is removed in one go', async () => {
    const dataDir = realDir();
    const keychain = createKeytarSecretStore();
    host = await startDemoHost({ dataDir, startEngine: workerEngines, config: FAST });
    const call = host.engine.call.bind(host.engine);

    expect(await call('getDemoStatus', {})).toMatchObject({
      ok: true,
      value: { active: false, available: true },
    });
    expect(host.dataDir).toBe(dataDir);

    const started = await call('startDemo', {});
    const demoDir = `${dataDir}-demo`;
    expect(started).toMatchObject({
      ok: true,
      value: { active: true, dataDir: demoDir, city: 'San Francisco', keyStorage: 'keychain' },
    });
    expect(host.dataDir).toBe(demoDir);
    expect(readMarker(demoDir)).toMatchObject({ kind: 'blotter-demo', realDataDir: dataDir });
    expect(await call('getAppInfo', {})).toMatchObject({ ok: true, value: { dataDir: demoDir } });

    const settings = await call('getSettings', {});
    expect(settings.ok && settings.value.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(settings).toMatchObject({ ok: true, value: { plan: 'enterprise', ratePerMinute: 600 } });
    const areas = await call('listAreas', {});
    expect(areas.ok && areas.value.areas.map((a) => a.name)).toEqual([
      'Downtown San Francisco (demo)',
      'Mission District (demo)',
    ]);
    expect(started.ok && started.value.areaId).toBe(areas.ok && areas.value.areas[0]?.id);

    const account = apiKeyAccount(profileIdOf(demoDir));
    expect(await keychain.get(account)).toMatch(/^blotter-demo-/);

    await syncFinished(host.engine);
    const after = await call('listAreas', {});
    expect(after.ok && after.value.areas[0]?.lastRun).toMatchObject({ state: 'done' });
    const summary = await call('getArchiveSummary', {});
    expect(summary.ok && summary.value.total).toBeGreaterThan(300);

    const removed = await call('removeDemo', {});
    expect(removed).toMatchObject({ ok: true, value: { active: false } });
    expect(existsSync(demoDir)).toBe(false);
    expect(await keychain.get(account)).toBeNull();
    expect(host.dataDir).toBe(dataDir);
    expect(await call('getAppInfo', {})).toMatchObject({ ok: true, value: { dataDir } });
    expect(await call('listAreas', {})).toMatchObject({ ok: true, value: { areas: [] } });
    expect(existsSync(path.join(dataDir, MARKER_FILE))).toBe(false);
  });

  it('goes straight into the demo with --demo, and resumes the same demo on its folder', async () => {
    const dataDir = realDir();
    host = await startDemoHost({ dataDir, startEngine: workerEngines, demo: true, config: FAST });
    expect(host.status()).toMatchObject({ active: true, dataDir: `${dataDir}-demo` });
    const marker = readMarker(`${dataDir}-demo`);
    await syncFinished(host.engine);
    const first = await host.engine.call('getArchiveSummary', {});
    await host.close();

    // Opening the demo folder itself (or --demo again) resumes it: same clock, same incidents, the same areas.
    host = await startDemoHost({ dataDir: `${dataDir}-demo`, startEngine: workerEngines, config: FAST });
    expect(host.status()).toMatchObject({ active: true, dataDir: `${dataDir}-demo` });
    expect(readMarker(`${dataDir}-demo`)).toEqual(marker);
    const areas = await host.engine.call('listAreas', {});
    expect(areas.ok && areas.value.areas).toHaveLength(2);
    await syncFinished(host.engine);
    const second = await host.engine.call('getArchiveSummary', {});
    expect(second.ok && second.value.total).toBe(first.ok && first.value.total);

    await host.removeDemo();
    expect(host.dataDir).toBe(dataDir);
    expect(existsSync(`${dataDir}-demo`)).toBe(false);
  });
});

describe('demo mode without a keychain', () => {
  it('hands the engine the synthetic key in memory and still syncs', async () => {
    const dataDir = realDir();
    const secrets = createMemorySecretStore();
    secrets.unavailable = { available: false, problem: 'No D-Bus session is running.', fix: 'Start one.' };
    host = await startDemoHost({ dataDir, startEngine: inProcessEngines(secrets), config: FAST });
    const status = await host.startDemo();
    expect(status).toMatchObject({ active: true, keyStorage: 'memory' });
    expect(secrets.entries.size).toBe(0);
    const key = await host.engine.call('getKeyStatus', {});
    expect(key).toMatchObject({ ok: true, value: { keySet: true, keychain: { available: true } } });
    await syncFinished(host.engine);
    const areas = await host.engine.call('listAreas', {});
    expect(areas.ok && areas.value.areas[0]?.lastRun?.state).toBe('done');

    await host.removeDemo();
    expect(existsSync(`${dataDir}-demo`)).toBe(false);
    expect(await host.engine.call('getKeyStatus', {})).toMatchObject({
      ok: true,
      value: { keySet: false, keychain: { available: false } },
    });
  });

  it('downloads the demo area’s streets from the simulator through the basemap download, and the map draws them', async () => {
    const dataDir = realDir();
    host = await startDemoHost({
      dataDir,
      startEngine: inProcessEngines(createMemorySecretStore()),
      config: FAST,
    });
    const progress: string[] = [];
    host.engine.onEvent((e) => {
      if (e.type === 'basemapProgress') progress.push(e.state);
    });
    await host.startDemo();
    const deadline = Date.now() + 60_000;
    while (!progress.includes('done') && !progress.includes('failed') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(progress[0]).toBe('running');
    expect(progress.at(-1)).toBe('done');
    expect(existsSync(path.join(`${dataDir}-demo`, 'basemap', 'areas.pmtiles'))).toBe(true);
    const info = await host.engine.call('getBasemapInfo', {});
    expect(info).toMatchObject({ ok: true, value: { kind: 'extract', status: 'ready', format: 'mvt' } });
    const settings = await host.engine.call('getSettings', {});
    expect(settings.ok && settings.value.basemapSource).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/basemap\/demo\.pmtiles$/,
    );
    await syncFinished(host.engine);
  });

  it('a second start while one runs does nothing new', async () => {
    const dataDir = realDir();
    host = await startDemoHost({
      dataDir,
      startEngine: inProcessEngines(createMemorySecretStore()),
      config: FAST,
    });
    const [a, b] = await Promise.all([host.startDemo(), host.startDemo()]);
    expect(a).toEqual(b);
    const areas = await host.engine.call('listAreas', {});
    expect(areas.ok && areas.value.areas).toHaveLength(2);
    await syncFinished(host.engine);
  });
});
