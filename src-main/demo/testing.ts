/** Test helpers for demo mode: engines on real workers or in-process, waiting for a sync to finish. */
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  createInProcessEngine,
  startEngine,
  withInMemoryDemoKey,
  type EngineHandle,
  type SecretStore,
} from '../engine/index';
import type { EngineStarter } from './demoHost';

/** The real thing: an engine worker per folder (from source), keychain and all. */
export const workerEngines: EngineStarter = ({ dataDir, demoKey }) =>
  startEngine({ dataDir, host: 'web', version: 'test', ...(demoKey ? { demoKey } : {}) });

/** In-process engines on a given secret store, wrapped as the worker wraps the keychain. */
export const inProcessEngines =
  (secrets: SecretStore): EngineStarter =>
  ({ dataDir, demoKey }) =>
    createInProcessEngine({
      dataDir,
      host: 'web',
      version: 'test',
      logFile: null,
      secrets: demoKey ? withInMemoryDemoKey(secrets, demoKey) : secrets,
    });

/** Resolves when every area of the folder has a finished run (done or failed); rejects after `ms`. */
export async function syncFinished(engine: EngineHandle, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const r = await engine.call('listAreas', {});
    const areas = r.ok ? r.value.areas : [];
    if (areas.length > 0 && areas.every((a) => !a.syncing && a.lastRun && a.lastRun.state !== 'running'))
      return;
    if (Date.now() > deadline) throw new Error(`the demo sync did not finish within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The folder's profile id (its keychain account is `api-key:<id>`), read beside the running engine. */
export function profileIdOf(dataDir: string): string {
  const db = new Database(path.join(dataDir, 'blotter.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare("SELECT value FROM settings WHERE key = 'profileId'").get() as
      { value: string } | undefined;
    if (!row) throw new Error(`no profile id in ${dataDir}`);
    return JSON.parse(row.value) as string;
  } finally {
    db.close();
  }
}
