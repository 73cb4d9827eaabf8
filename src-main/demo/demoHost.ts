/**
 * Demo mode for a host (the web host and the Electron main process both use this). The host gets
 * one EngineHandle that answers the demo calls itself — the contract's `answeredBy: 'host'` calls,
 * as a typed `HostAnswers` record (engine/hostCalls.ts) — and forwards everything else to the
 * engine of the data folder in use:
 *
 * - startDemo: the simulator starts in this process on 127.0.0.1 (demoSimulator), the demo folder
 *   (`<data folder>-demo`, marker.ts) gets an engine of its own, the demo key goes to the keychain
 *   under that folder's account (or, with no keychain reachable, to the engine in memory), base URL
 *   and plan are set, the demo areas over the demo city are created and a normal sync starts — rate
 *   limiter, progress events and all. Then the handle switches to that engine.
 * - removeDemo: the sync stops, the key leaves the keychain, the handle switches back to the real
 *   folder's engine, the simulator stops and the demo folder is deleted.
 *
 * A host started with --demo, or on a demo folder, starts in the demo directly.
 */
import type { CallName, CallOutput, Result } from '../../src-shared/contract';
import type { DemoStatus } from '../../src-shared/firstRun';
import {
  createLogger,
  DEMO_KEY_BACKEND,
  withHostCalls,
  type EngineHandle,
  type HostAnswers,
} from '../engine/index';
import { DEMO_CONFIG, type DemoConfig } from './config';
import { demoDataDirOf, ensureDemoDir, readMarker, removeDemoDir } from './marker';
import { bypassProxyForLoopback, startDemoSimulator, type DemoSimulator } from './simulator';
import { createSwitchingEngine } from './switchingEngine';

export type EngineStarter = (options: { dataDir: string; demoKey?: string }) => Promise<EngineHandle>;

export type DemoHostOptions = {
  /** The data folder the host was started with (--data-dir, BLOTTER_DATA_DIR or the default). */
  dataDir: string;
  /** Starts an engine on a folder: the host's own startEngine (its worker, its host kind). */
  startEngine: EngineStarter;
  /** --demo: start in the demo. */
  demo?: boolean;
  config?: Partial<DemoConfig>;
  now?: () => number;
};

export interface DemoHost {
  /** What the host serves: the demo calls answered here, every other call by the current engine. */
  readonly engine: EngineHandle;
  /** The data folder in use now (the demo folder while the demo runs). */
  readonly dataDir: string;
  status(): DemoStatus;
  startDemo(): Promise<DemoStatus>;
  removeDemo(): Promise<DemoStatus>;
  /** Stops the engine and the simulator. */
  close(): Promise<void>;
}

type Running = { demo: DemoSimulator; areaId: number | null; keyStorage: 'keychain' | 'memory' };

const log = createLogger('demo');

export async function startDemoHost(o: DemoHostOptions): Promise<DemoHost> {
  const config: DemoConfig = { ...DEMO_CONFIG, ...o.config };
  const now = o.now ?? Date.now;
  const startedOn = readMarker(o.dataDir);
  const realDir = startedOn ? startedOn.realDataDir : o.dataDir;
  const demoDir = startedOn ? o.dataDir : demoDataDirOf(o.dataDir);
  let running: Running | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  /** One switch at a time: a second click waits for the first. */
  function serial<T>(work: () => Promise<T>): Promise<T> {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  }

  async function openDemo(): Promise<EngineHandle> {
    const marker = ensureDemoDir(demoDir, realDir, now());
    const demo = await startDemoSimulator(config, marker.simStart);
    bypassProxyForLoopback();
    let engine: EngineHandle | null = null;
    try {
      engine = await o.startEngine({ dataDir: demoDir, demoKey: demo.key });
      running = { demo, ...(await setUpDemo(engine, demo, config)) };
      log.info('demo started', { dataDir: demoDir, simulator: demo.sim.url, keyStorage: running.keyStorage });
      return engine;
    } catch (error) {
      await engine?.close();
      await demo.sim.close();
      throw error;
    }
  }

  const switching = createSwitchingEngine(
    startedOn || o.demo ? await openDemo() : await o.startEngine({ dataDir: realDir }),
  );

  const status = (): DemoStatus => ({
    active: running !== null,
    available: true,
    dataDir: demoDir,
    city: running?.demo.city.name ?? config.city,
    areaId: running?.areaId ?? null,
    keyStorage: running?.keyStorage ?? null,
  });

  const startDemo = (): Promise<DemoStatus> =>
    serial(async () => {
      if (running) return status();
      await switching.switchTo(await openDemo());
      return status();
    });

  const removeDemo = (): Promise<DemoStatus> =>
    serial(async () => {
      const was = running;
      if (!was) return status();
      const home = await o.startEngine({ dataDir: realDir });
      const demoEngine = switching.current;
      await demoEngine.call('stopSync', {});
      const removed = await demoEngine.call('removeApiKey', {});
      if (!removed.ok)
        log.warn('the demo key could not be removed from the keychain', { why: removed.error });
      await switching.switchTo(home);
      running = null;
      await was.demo.sim.close();
      removeDemoDir(demoDir);
      log.info('demo removed', { dataDir: demoDir });
      return status();
    });

  const answers: HostAnswers = {
    getDemoStatus: () => settle(async () => status()),
    startDemo: () => settle(startDemo),
    removeDemo: () => settle(removeDemo),
  };
  const engine = withHostCalls(
    {
      call: (name, input) => switching.call(name, input),
      onEvent: switching.onEvent,
      close: async () => {
        await queue;
        await switching.close();
        await running?.demo.sim.close();
        running = null;
      },
    },
    answers,
  );

  return {
    engine,
    get dataDir() {
      return running ? demoDir : realDir;
    },
    status,
    startDemo,
    removeDemo,
    close: engine.close,
  };
}

async function settle(work: () => Promise<DemoStatus>): Promise<Result<DemoStatus>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.error('demo mode failed', { error });
    return { ok: false, error: { code: 'internal', message: `The demo could not be switched: ${message}` } };
  }
}

/** Key, base URL and plan, the demo area (once), and a normal sync of the folder's areas. */
async function setUpDemo(
  engine: EngineHandle,
  demo: DemoSimulator,
  config: DemoConfig,
): Promise<Omit<Running, 'demo'>> {
  async function must<K extends CallName>(name: K, input: unknown): Promise<CallOutput<K>> {
    const result = await engine.call(name, input);
    if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
    return result.value;
  }
  // Base URL first: the key entered next is bound to it (engine/api/keyAddress.ts).
  await must('updateSettings', {
    baseUrl: demo.sim.url,
    plan: config.plan,
    ratePerMinute: config.ratePerMinute,
    windowDays: config.windowDays,
  });
  const key = await must('setApiKey', { key: demo.key });
  const keyStorage =
    key.keychain.available && key.keychain.backend === DEMO_KEY_BACKEND ? 'memory' : 'keychain';
  const { areas } = await must('listAreas', {});
  const first = config.areas[0]?.name;
  let area = areas.find((a) => a.name === first) ?? null;
  if (!area && areas.length === 0) {
    for (const a of config.areas) {
      const made = await must('createArea', {
        name: a.name,
        shape: { kind: 'circle', lat: a.lat, lon: a.lon, radiusMi: a.radiusMi },
      });
      area ??= made;
    }
  }
  await must('startSync', {});
  await downloadDemoStreets(engine, demo);
  return { areaId: area?.id ?? null, keyStorage };
}

/**
 * The demo area's streets, through the same download path as any basemap source: the simulator's
 * PMTiles (loopback, range requests) becomes the folder's source and its extract is started; the
 * progress arrives as basemapProgress events and the map draws the streets when it lands. A folder
 * that has its extract already (a later launch) downloads nothing. Never fails the demo.
 */
async function downloadDemoStreets(engine: EngineHandle, demo: DemoSimulator): Promise<void> {
  const source = demo.sim.basemapUrl;
  if (!source) return;
  const info = await engine.call('getBasemapInfo', {});
  if (info.ok && info.value.kind === 'extract' && info.value.status === 'ready') return;
  const saved = await engine.call('updateSettings', { basemapSource: source });
  if (!saved.ok) return void log.warn('the demo basemap source could not be stored', { why: saved.error });
  const started = await engine.call('startBasemapDownload', { source });
  if (!started.ok) log.warn('the demo streets could not be downloaded', { why: started.error });
}
