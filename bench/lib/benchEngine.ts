/**
 * For the export and import benchmarks: a data folder with a seeded 1M-incident file (seeded once
 * into bench/results/, reused while the schema and count are the same), an in-process engine on it,
 * a peak-RSS sampler, and waiting for engine events.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import type { EngineEvent } from '../../src-shared/contract';
import { dbFileOf, logFileOf } from '../../src-main/engine/dataDir';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { configureLogging } from '../../src-main/engine/log';
import { createMemorySecretStore } from '../../src-main/engine/secrets/memorySecretStore';
export { RESULTS, seededFile } from './prepared';

/** A fresh data folder (optionally holding a copy of `dbFile`) with an engine on it, in this thread. */
export function benchEngine(dir: string, dbFile?: string): { engine: Engine; events: EngineEvent[] } {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  if (dbFile) copyFileSync(dbFile, dbFileOf(dir));
  configureLogging({ file: logFileOf(dir), stderr: false });
  const events: EngineEvent[] = [];
  const engine = createEngine({
    dataDir: dir,
    secrets: createMemorySecretStore(),
    host: 'cli',
    version: 'bench',
    emit: (e) => events.push(e),
    checkOutputs: false,
  });
  return { engine, events };
}

export async function call<T>(engine: Engine, name: string, input: unknown): Promise<T> {
  const result = await engine.dispatch(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
  return result.value as T;
}

/** Samples the process's resident memory every few ms; `peak` is the highest seen. */
export function rssSampler(everyMs = 10): { readonly peak: number; stop(): number } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), everyMs);
  return {
    get peak() {
      return peak;
    },
    stop() {
      clearInterval(timer);
      return (peak = Math.max(peak, process.memoryUsage().rss));
    },
  };
}

/** Resolves with the first event matching `match`, polling the event list. */
export function waitForEvent<T extends EngineEvent>(
  events: EngineEvent[],
  match: (e: EngineEvent) => e is T,
): Promise<T> {
  return new Promise((resolve) => {
    const check = (): void => {
      const hit = events.find(match);
      if (hit) resolve(hit);
      else setTimeout(check, 5);
    };
    check();
  });
}

export const MB = 1024 * 1024;
