import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src-shared/contract';
import type { EngineHandle } from './engineHandle';
import { createInProcessEngine } from './inProcessEngine';
import { createMemorySecretStore } from './secrets/memorySecretStore';
import { makeTempDir, type TempDir } from './testing/tempDir';

describe('createInProcessEngine', () => {
  let tmp: TempDir;
  let engine: EngineHandle;
  beforeEach(async () => {
    tmp = makeTempDir();
    engine = await createInProcessEngine({
      dataDir: tmp.path,
      host: 'cli',
      version: '2.0.0',
      secrets: createMemorySecretStore(),
      logFile: null,
    });
  });
  afterEach(async () => {
    await engine.close();
    tmp.remove();
  });

  it('offers the same handle as the worker: calls, events, unsubscribe, close', async () => {
    const seen: EngineEvent[] = [];
    const unsubscribe = engine.onEvent((event) => seen.push(event));
    engine.onEvent(() => {
      throw new Error('a broken listener does not break the call');
    });
    expect(await engine.call('getAppInfo', {})).toEqual({
      ok: true,
      value: { version: '2.0.0', host: 'cli', dataDir: tmp.path },
    });
    expect(await engine.call('updateSettings', { plan: 'pro-monthly' })).toMatchObject({ ok: true });
    unsubscribe();
    await engine.call('updateSettings', { plan: 'developer' });
    expect(seen.map((e) => e.type === 'settingsChanged' && e.settings.plan)).toEqual(['pro-monthly']);
    await engine.close();
    expect(await engine.call('getSettings', {})).toMatchObject({ ok: false, error: { code: 'cancelled' } });
  });
});
