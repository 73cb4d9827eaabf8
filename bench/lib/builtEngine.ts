/**
 * The engine as the app runs it, for benchmarks: the built worker (out/main/engineWorker.js, with
 * its helper-thread bundles beside it), built first when out/ is missing or older than its
 * sources (as `npm run web` does), on a data folder.
 */
import path from 'node:path';
import type { CallName } from '../../src-shared/contract';
import { startEngine } from '../../src-main/engine/engineClient';
import type { EngineHandle } from '../../src-main/engine/engineHandle';
import { ensureBuilt } from './prepared';

const ROOT = path.join(import.meta.dirname, '..', '..');

export async function startBuiltEngine(
  dataDir: string,
  /** Which host's engine: the CLI's (every answer a result) or an app's ('web': views may lag). */
  host: 'cli' | 'web' = 'cli',
): Promise<EngineHandle> {
  await ensureBuilt();
  return startEngine({
    dataDir,
    host,
    version: 'bench',
    workerPath: path.join(ROOT, 'out', 'main', 'engineWorker.js'),
  });
}

/** One contract call; throws with the engine's message when it fails. */
export async function engineCall<T>(engine: EngineHandle, name: CallName, input: unknown): Promise<T> {
  const result = await engine.call(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
  return result.value as T;
}
