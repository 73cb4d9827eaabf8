/**
 * A test's engine (tests only): a fresh data folder with the log written there (not on stderr), an
 * in-memory keychain and an engine whose events are kept (`waitFor` one); `close` undoes all three.
 * `call` answers a call's value or throws its error (with its `code`); `file` writes into the folder.
 * With a simulator: `connectTo` stores its URL, the Enterprise terms the tests sync on (6,000 a
 * minute, 30 days) and the key, as the app's settings would.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
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
  /** The first event (already seen or still to come) that matches. */
  waitFor<T extends EngineEvent>(match: (e: EngineEvent) => e is T, timeoutMs?: number): Promise<T>;
  /** A call's value; its error thrown as an Error with the error's `code`. */
  call<T>(name: string, input: unknown): Promise<T>;
  /** Writes `text` to NAME in the data folder and answers its path. */
  file(name: string, text: string): string;
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
  const waiters = new Set<() => void>();
  const secrets = createMemorySecretStore();
  const engine = createEngine({
    dataDir: tmp.path,
    secrets,
    host: 'web',
    version: 't',
    emit: (e) => {
      events.push(e);
      for (const w of waiters) w();
    },
    ...options,
  });
  return {
    tmp,
    engine,
    events,
    secrets,
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const hit = events.find(match);
          if (!hit) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(hit);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error('timed out waiting for an engine event'));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async call<T>(name: string, input: unknown): Promise<T> {
      const result = await engine.dispatch(name, input);
      if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
      return result.value as T;
    },
    file(name, text) {
      const p = path.join(tmp.path, name);
      writeFileSync(p, text);
      return p;
    },
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
