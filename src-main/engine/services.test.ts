import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallName } from '../../src-shared/contract';
import type { EngineServices } from './context';
import { logFileOf } from './dataDir';
import { createEngine, type Engine, type EngineOptions } from './engine';
import { configureLogging } from './log';
import { createMemorySecretStore } from './secrets/memorySecretStore';
import { makeTempDir, type TempDir } from './testing/tempDir';

/** Calls that reach the services: query, sync, exports, imports, basemap, alerts, analysis. */
const ONE_CALL_EACH: Array<[CallName, unknown]> = [
  ['countIncidents', { filters: {} }],
  ['listAreas', {}],
  ['cancelExport', { jobId: 'none' }],
  ['discardImport', { importId: 'none' }],
  ['getBasemapInfo', {}],
  ['listAlertRules', {}],
  ['cancelAnalysis', { jobId: 'none' }],
];

const ALL_SERVICES = [
  'alerts',
  'analysis',
  'areas',
  'basemap',
  'exports',
  'fetch',
  'imports',
  'layers',
  'office',
  'query',
  'schedules',
  'sync',
  'writeTurns',
];

describe('the engine’s services', () => {
  let tmp: TempDir;
  const engines: Engine[] = [];
  const open = (extra: Partial<EngineOptions> = {}): Engine => {
    const engine = createEngine({
      dataDir: tmp.path,
      secrets: createMemorySecretStore(),
      host: 'cli',
      version: '1',
      emit: () => undefined,
      ...extra,
    });
    engines.push(engine);
    return engine;
  };
  beforeEach(() => {
    tmp = makeTempDir();
    configureLogging({ file: logFileOf(tmp.path), stderr: false });
  });
  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.close();
    configureLogging({ file: null, stderr: true });
    tmp.remove();
  });

  it('are built once at start, whatever call comes first, and are the ones every call uses', async () => {
    for (const order of [ONE_CALL_EACH, [...ONE_CALL_EACH].reverse()]) {
      const engine = open();
      const built: EngineServices = { ...engine.context.services };
      expect(Object.keys(built).sort()).toEqual(ALL_SERVICES);
      for (const [name, input] of order) await engine.dispatch(name, input);
      for (const key of Object.keys(built) as Array<keyof EngineServices>) {
        expect(engine.context.services[key], key).toBe(built[key]);
      }
      await engine.close();
    }
  });

  it('close in reverse order of building, after calls in flight and before the database', async () => {
    const engine = open();
    const closed: string[] = [];
    const s = engine.context.services;
    const track = <T extends object>(what: string, service: T, method: keyof T & string): void => {
      const original = (service[method] as (...a: unknown[]) => unknown).bind(service);
      vi.spyOn(service, method as never).mockImplementation(((...args: unknown[]) => {
        closed.push(`${what}${engine.context.db.open ? '' : ' (database already closed)'}`);
        return original(...args);
      }) as never);
    };
    track('query', s.query, 'close');
    track('sync', s.sync, 'close');
    track('exports', s.exports, 'closeAll');
    track('imports', s.imports, 'close');
    track('basemap', s.basemap, 'close');
    track('analysis', s.analysis, 'closeAll');
    track('office', s.office, 'close');
    track('layers', s.layers, 'close');
    track('alerts', s.alerts, 'stop');
    const inFlight = engine.dispatch('countIncidents', { filters: {} });
    await engine.close();
    expect(await inFlight).toMatchObject({ ok: true });
    // Built alerts → query → office → sync → analysis → exports → imports → basemap → layers.
    expect(closed).toEqual([
      'layers',
      'basemap',
      'imports',
      'exports',
      'analysis',
      'sync',
      'office',
      'query',
      'alerts',
    ]);
    expect(engine.context.db.open).toBe(false);
  });

  it('use the fetch the host passes, made once, for the API and the tiles alike', async () => {
    const hostFetch = vi.fn(async () => new Response('{}', { status: 200 }));
    const engine = open({ fetch: hostFetch });
    const fetch = await engine.context.services.fetch();
    expect(fetch).toBe(hostFetch);
    expect(await engine.context.services.fetch()).toBe(fetch);
    const other = open({ fetch: null });
    expect(await other.context.services.fetch()).not.toBe(hostFetch); // no module-wide fetch
  });

  it('start no scheduler and no snapshot preload for the CLI; the app hosts get both unless told otherwise', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const cli = open({ host: 'cli' });
      const loads = vi.spyOn(cli.context.services.query, 'snapshot');
      vi.runOnlyPendingTimers();
      expect(cli.context.services.sync.scheduling()).toBe(false);
      expect(loads).not.toHaveBeenCalled();
      await cli.close();

      const web = open({ host: 'web' });
      const warmed = vi.spyOn(web.context.services.query, 'snapshot');
      vi.runOnlyPendingTimers();
      expect(web.context.services.sync.scheduling()).toBe(true);
      expect(warmed).toHaveBeenCalled();
      await web.close();

      const quiet = open({ host: 'web', scheduler: false, warmQueries: false });
      const none = vi.spyOn(quiet.context.services.query, 'snapshot');
      vi.runOnlyPendingTimers();
      expect(quiet.context.services.sync.scheduling()).toBe(false);
      expect(none).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});
