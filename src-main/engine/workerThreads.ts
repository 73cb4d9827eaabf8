/**
 * Starting the engine's worker threads from either form of the code: a bundled .js entry as is, a
 * .ts entry (tests, `tsx` hosts) through tsWorkerBootstrap.mjs, which registers tsx first.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits, type TransferListItem } from 'node:worker_threads';

export function startWorkerThread(
  entry: string,
  workerData: unknown,
  transferList: TransferListItem[] = [],
  resourceLimits?: ResourceLimits,
): Worker {
  const limits = resourceLimits ? { resourceLimits } : {};
  if (!entry.endsWith('.ts')) return new Worker(entry, { workerData, transferList, ...limits });
  const bootstrap = path.join(path.dirname(fileURLToPath(import.meta.url)), 'tsWorkerBootstrap.mjs');
  return new Worker(bootstrap, { workerData, transferList, argv: [pathToFileURL(entry).href], ...limits });
}

/**
 * A worker entry: `source` beside the calling module when it runs from source, else the bundle
 * `bundled` in the build's folder (beside the calling bundle, or one up when it is a shared chunk).
 */
export function workerEntry(moduleUrl: string, source: string, bundled: string): string {
  const here = fileURLToPath(moduleUrl);
  const dir = path.dirname(here);
  if (here.endsWith('.ts')) return path.join(dir, source);
  const beside = path.join(dir, bundled);
  return existsSync(beside) ? beside : path.join(path.dirname(dir), bundled);
}
