/**
 * A handler test's engine (tests only): a fresh data folder with the log written there (not on
 * stderr), an in-memory keychain and an engine whose events are kept; `close` undoes all three.
 * With a simulator: `connectTo` stores its URL, the Enterprise terms the tests sync on (6,000 a
 * minute, 30 days) and the key, as the app's settings would.
 */
import type { EngineEvent } from '../../../src-shared/contract';
import { logFileOf } from '../dataDir';
import { createEngine, type Engine, type EngineOptions } from '../engine';
import { configureLogging } from '../log';
import { createMemorySecretStore, type MemorySecretStore } from '../secrets/memorySecretStore';
import { makeTempDir, type TempDir } from './tempDir';

export type EngineFixture = {
  tmp: TempDir;
  engine: Engine;
  /** Every event the engine emitted, in order. */
  events: EngineEvent[];
  secrets: MemorySecretStore;
  close(): Promise<void>;
};

export type FixtureOptions = Partial<Omit<EngineOptions, 'dataDir' | 'emit'>> & {
  /** Runs on the data folder before the engine opens it (a seeded database). */
  before?: (dataDir: string) => void;
};

export function openEngine({ before, ...options }: FixtureOptions = {}): EngineFixture {
  const tmp = makeTempDir();
  configureLogging({ file: logFileOf(tmp.path), stderr: false });
  before?.(tmp.path);
  const events: EngineEvent[] = [];
  const secrets = createMemorySecretStore();
  const engine = createEngine({
    dataDir: tmp.path,
    secrets,
    host: 'web',
    version: 't',
    emit: (e) => events.push(e),
    ...options,
  });
  return {
    tmp,
    engine,
    events,
    secrets,
    close: async () => {
      await engine.close();
      configureLogging({ file: null, stderr: true });
      tmp.remove();
    },
  };
}

/** A call's value; a refusal thrown as "code: message". */
export async function ok<T>(
  p: Promise<{ ok: true; value: T } | { ok: false; error: { code: string; message: string } }>,
): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

/** A simulator key for this machine on the Enterprise terms the handler tests sync on. */
export const enterpriseKey = (key: string) => ({
  key,
  plan: 'enterprise' as const,
  ips: ['127.0.0.1', '::1'],
  ratePerMinute: 6000,
  windowDays: 30,
});

/** Stores the simulator's URL, the Enterprise terms of `enterpriseKey` and the key. */
export async function connectTo(engine: Engine, baseUrl: string, key: string): Promise<void> {
  await ok(
    engine.dispatch('updateSettings', { baseUrl, plan: 'enterprise', ratePerMinute: 6000, windowDays: 30 }),
  );
  await ok(engine.dispatch('setApiKey', { key }));
}
