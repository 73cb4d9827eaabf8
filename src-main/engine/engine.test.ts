import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answeredBy, type EngineEvent } from '../../src-shared/contract';
import { DEFAULT_SETTINGS, viewOf } from '../../src-shared/settings';
import { logFileOf } from './dataDir';
import { createEngine, type Engine, type EngineOptions } from './engine';
import { handlers } from './handlers/index';
import { configureLogging } from './log';
import { createMemorySecretStore, type MemorySecretStore } from './secrets/memorySecretStore';
import { makeTempDir, type TempDir } from './testing/tempDir';

describe('engine', () => {
  let tmp: TempDir;
  let secrets: MemorySecretStore;
  let events: EngineEvent[];
  let engine: Engine;
  const open = (extra: Partial<EngineOptions> = {}): Engine =>
    createEngine({
      dataDir: tmp.path,
      secrets,
      host: 'web',
      version: '1.2.3',
      emit: (event) => events.push(event),
      ...extra,
    });

  beforeEach(() => {
    tmp = makeTempDir();
    configureLogging({ file: logFileOf(tmp.path), stderr: false });
    secrets = createMemorySecretStore();
    events = [];
    engine = open();
  });
  afterEach(async () => {
    await engine.close();
    configureLogging({ file: null, stderr: true });
    tmp.remove();
  });
  const logText = (): string => readFileSync(logFileOf(tmp.path), 'utf8');

  it('answers getAppInfo', async () => {
    expect(await engine.dispatch('getAppInfo', {})).toEqual({
      ok: true,
      value: { version: '1.2.3', host: 'web', dataDir: tmp.path },
    });
  });

  it('refuses an unknown call and bad input with typed errors', async () => {
    expect(await engine.dispatch('dropTables', {})).toMatchObject({
      ok: false,
      error: { code: 'unknown_call' },
    });
    const bad = await engine.dispatch('updateSettings', { plan: 'gold', extra: 1 });
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(!bad.ok && bad.error.issues?.map((i) => i.path)).toEqual(expect.arrayContaining(['plan']));
    const badKey = await engine.dispatch('setApiKey', { key: 'has space' });
    expect(badKey).toMatchObject({ ok: false, error: { code: 'bad_input', issues: [{ path: 'key' }] } });
    expect(secrets.entries.size).toBe(0);
  });

  it('refuses a call the contract gives the host, saying who answers it', async () => {
    for (const name of ['getDemoStatus', 'startDemo', 'removeDemo'] as const) {
      expect(answeredBy(name)).toBe('host');
      const answer = await engine.dispatch(name, {});
      expect(answer).toEqual({
        ok: false,
        error: {
          code: 'unknown_call',
          message: `${name} is answered by the Blotter app that started the engine, not by the engine; this host does not offer it.`,
        },
      });
    }
    expect(Object.keys(handlers)).not.toContain('getDemoStatus');
    // A call the host only prepares is still the engine's to answer.
    expect(answeredBy('startExport')).toBe('host-then-engine');
    expect(Object.keys(handlers)).toContain('startExport');
  });

  it('reads and updates settings, announces the change, and keeps it across reopen', async () => {
    expect(await engine.dispatch('getSettings', {})).toEqual({ ok: true, value: viewOf(DEFAULT_SETTINGS) });
    const updated = await engine.dispatch('updateSettings', {
      plan: 'pro-annual',
      baseUrl: 'https://api.test/',
    });
    const view = viewOf({ ...DEFAULT_SETTINGS, plan: 'pro-annual', baseUrl: 'https://api.test' });
    expect(updated).toEqual({ ok: true, value: view });
    expect(view.effective).toEqual({ ratePerMinute: 300, windowDays: 182 });
    expect(events).toEqual([{ type: 'settingsChanged', settings: view }]);
    await engine.close();
    engine = open();
    expect(await engine.dispatch('getSettings', {})).toEqual({ ok: true, value: view });
  });

  it('stores the key under this folder’s account, reports only whether it is set, and announces changes', async () => {
    const available = { available: true, backend: 'memory (tests only)' };
    expect(await engine.dispatch('getKeyStatus', {})).toEqual({
      ok: true,
      value: { keySet: false, keychain: available },
    });
    const set = await engine.dispatch('setApiKey', { key: '  abcd-1234  ' });
    expect(set).toEqual({ ok: true, value: { keySet: true, keychain: available } });
    expect(engine.context.keyAccount).toMatch(/^api-key:[0-9a-f-]{36}$/);
    expect([...secrets.entries]).toEqual([[engine.context.keyAccount, 'abcd-1234']]);
    expect(await engine.dispatch('removeApiKey', {})).toEqual({
      ok: true,
      value: { keySet: false, keychain: available },
    });
    expect(secrets.entries.size).toBe(0);
    const keyEvents = events.filter((e) => e.type === 'keyStatusChanged');
    expect(keyEvents.map((e) => e.status.keySet)).toEqual([true, false]);
    // Storing a key also binds it to the base URL in use, which is a settings change.
    expect(events.filter((e) => e.type === 'settingsChanged')).toHaveLength(1);
  });

  it('gives each data folder its own key account', async () => {
    const other = makeTempDir();
    try {
      const second = createEngine({
        dataDir: other.path,
        secrets,
        host: 'cli',
        version: '1',
        emit: () => undefined,
      });
      expect(second.context.keyAccount).not.toBe(engine.context.keyAccount);
      await second.close();
    } finally {
      other.remove();
    }
  });

  it('says how to fix an unreachable keychain, and never stores the key elsewhere', async () => {
    secrets.unavailable = {
      available: false,
      problem: 'No D-Bus session is running.',
      fix: 'Run dbus-run-session.',
    };
    const status = await engine.dispatch('getKeyStatus', {});
    expect(status).toEqual({ ok: true, value: { keySet: false, keychain: secrets.unavailable } });
    const set = await engine.dispatch('setApiKey', { key: 'abcd-1234' });
    expect(set).toMatchObject({ ok: false, error: { code: 'keychain_unavailable' } });
    expect(!set.ok && set.error.message).toMatch(/No D-Bus session is running\. Run dbus-run-session\./);
    expect(events).toEqual([]);
    const rows = engine.context.db.prepare("SELECT value FROM settings WHERE value LIKE '%abcd%'").all();
    expect(rows).toEqual([]);
  });

  it('turns an unexpected failure into `internal` with a safe message, logging the details redacted', async () => {
    await engine.close();
    const boom = async (): Promise<never> => {
      throw new Error('disk on fire near https://h/crimes.json?key=zz-secret-99');
    };
    engine = open({ handlers: { ...handlers, getAppInfo: boom } });
    const result = await engine.dispatch('getAppInfo', {});
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'internal',
        message: `Something went wrong inside Blotter (getAppInfo). The details are in ${logFileOf(tmp.path)}.`,
      },
    });
    expect(logText()).toContain('disk on fire near https://h/crimes.json?key=REDACTED');
    expect(logText()).not.toContain('zz-secret-99');
  });

  it('checks outputs against the contract in development', async () => {
    await engine.close();
    engine = open({ handlers: { ...handlers, getAppInfo: async () => ({ version: 1 }) as never } });
    expect(await engine.dispatch('getAppInfo', {})).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(logText()).toMatch(/getAppInfo answered outside the contract/);
  });

  it('logs calls slower than 50 ms', async () => {
    await engine.close();
    const slow = async () => {
      await new Promise((resolve) => setTimeout(resolve, 70));
      return { version: '1', host: 'web' as const, dataDir: '/x' };
    };
    engine = open({ handlers: { ...handlers, getAppInfo: slow } });
    await engine.dispatch('getAppInfo', {});
    expect(logText()).toMatch(/INFO {2}\[engine\] slow call \{"call":"getAppInfo","ms":\d+\}/);
  });

  it('finishes calls in flight before closing, then refuses new ones', async () => {
    const pending = engine.dispatch('setApiKey', { key: 'abcd-1234' });
    const closed = engine.close();
    expect(await pending).toMatchObject({ ok: true });
    await closed;
    expect(engine.context.db.open).toBe(false);
    expect(await engine.dispatch('getSettings', {})).toMatchObject({
      ok: false,
      error: { code: 'cancelled' },
    });
  });

  it('refuses to start on a data folder that is a file', () => {
    const file = path.join(tmp.path, 'blotter.sqlite', 'nested');
    expect(() =>
      createEngine({ dataDir: file, secrets, host: 'web', version: '1', emit: () => undefined }),
    ).toThrow(/is a file/);
  });
});
