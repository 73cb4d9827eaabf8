/**
 * main.ts with every Electron object faked: proves the wiring uses the tested modules — sandbox on,
 * one instance per data folder, hardening for every web contents, the CSP on the session, one IPC
 * handler per call, the window's preferences (created while the engine starts), and the engine
 * closed on quit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { callNames, channelOf } from '../../src-shared/contract';
import type { HostFetch } from '../engine/api/fetchBridge';

const fakes = vi.hoisted(() => {
  const listeners = new Map<string, (...args: unknown[]) => void>();
  const windows: { options: { webPreferences?: Record<string, unknown> }; url?: string }[] = [];
  return {
    listeners,
    windows,
    handlers: new Map<string, unknown>(),
    paths: new Map<string, string>(),
    engine: { call: vi.fn(), onEvent: vi.fn(() => () => {}), close: vi.fn(async () => {}) },
    startEngine: vi.fn(),
    netFetch: vi.fn(
      async (_url: string, _init: unknown) =>
        new Response('{"crimes":[]}', { status: 200, headers: { 'Content-Type': 'application/json' } }),
    ),
    enableSandbox: vi.fn(),
    onHeadersReceived: vi.fn(),
    setPermissionRequestHandler: vi.fn(),
    setPermissionCheckHandler: vi.fn(),
    registerSchemesAsPrivileged: vi.fn(),
    protocolHandle: vi.fn(),
  };
});

vi.mock('electron', () => {
  class BrowserWindow {
    webContents = { id: 1, mainFrame: {}, isDestroyed: () => false, send: vi.fn() };
    constructor(readonly options: { webPreferences?: Record<string, unknown> }) {
      fakes.windows.push(this);
    }
    once() {
      return this;
    }
    isDestroyed() {
      return false;
    }
    loadURL(url: string) {
      (this as { url?: string }).url = url;
      return Promise.resolve();
    }
  }
  const app = {
    on: (event: string, listener: (...args: unknown[]) => void) => (
      fakes.listeners.set(event, listener),
      app
    ),
    setPath: (name: string, value: string) => fakes.paths.set(name, value),
    requestSingleInstanceLock: () => true,
    enableSandbox: fakes.enableSandbox,
    isPackaged: false,
    getVersion: () => '9.9.9',
    whenReady: () => Promise.resolve(),
    quit: vi.fn(),
    exit: vi.fn(),
  };
  return {
    app,
    BrowserWindow,
    dialog: { showErrorBox: vi.fn() },
    nativeTheme: { shouldUseDarkColors: false },
    ipcMain: {
      handle: (channel: string, listener: unknown) => fakes.handlers.set(channel, listener),
      removeHandler: vi.fn(),
    },
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: fakes.onHeadersReceived },
        setPermissionRequestHandler: fakes.setPermissionRequestHandler,
        setPermissionCheckHandler: fakes.setPermissionCheckHandler,
      },
    },
    shell: { openExternal: vi.fn(async () => {}) },
    net: { fetch: fakes.netFetch },
    Notification: class {
      static isSupported = () => false;
      on() {}
      show() {}
    },
    protocol: {
      registerSchemesAsPrivileged: fakes.registerSchemesAsPrivileged,
      handle: fakes.protocolHandle,
    },
  };
});

vi.mock('../engine/engineClient', () => ({ startEngine: fakes.startEngine }));

const dataDir = mkdtempSync(path.join(tmpdir(), 'blotter-electron-'));
const argv = [...process.argv];
afterAll(() => {
  process.argv.splice(0, process.argv.length, ...argv);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('Electron main wiring', () => {
  it('starts the engine on the data folder and wires every safeguard', async () => {
    let engineUp!: () => void;
    fakes.startEngine.mockReturnValue(new Promise((resolve) => (engineUp = () => resolve(fakes.engine))));
    process.argv.push('--data-dir', dataDir);
    const umask = vi.spyOn(process, 'umask').mockImplementation(() => 0o022);
    await import('./main');
    // The window is created, and the calls registered, while the engine worker is still starting.
    await vi.waitFor(() => expect(fakes.windows).toHaveLength(1));
    expect(fakes.startEngine).toHaveBeenCalledTimes(1);
    expect([...fakes.handlers.keys()].sort()).toEqual(callNames.map(channelOf).sort());
    expect(fakes.engine.onEvent).not.toHaveBeenCalled();
    engineUp();
    await vi.waitFor(() => expect(fakes.engine.onEvent).toHaveBeenCalled());

    expect(fakes.paths.get('userData')).toBe(dataDir);
    expect(fakes.enableSandbox).toHaveBeenCalled();
    expect(fakes.startEngine).toHaveBeenCalledWith(
      expect.objectContaining({ dataDir, host: 'electron', version: '9.9.9' }),
    );
    expect(fakes.startEngine.mock.calls[0]?.[0].workerPath).toMatch(/engineWorker\.js$/);
    expect(fakes.listeners.has('web-contents-created')).toBe(true);
    expect(fakes.listeners.has('will-quit')).toBe(true);
    expect(fakes.onHeadersReceived).toHaveBeenCalled();
    expect(fakes.setPermissionRequestHandler).toHaveBeenCalled();
    expect([...fakes.handlers.keys()].sort()).toEqual(callNames.map(channelOf).sort());
    expect(fakes.engine.onEvent).toHaveBeenCalled();

    const win = fakes.windows[0];
    expect(win?.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    });
    expect(win?.options.webPreferences?.preload).toMatch(/[\\/]preload[\\/]index\.cjs$/);
    expect(win?.url).toBe('app://blotter/index.html');
    expect(fakes.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ secure: true }) }),
    ]);
    expect(fakes.protocolHandle).toHaveBeenCalledWith('app', expect.any(Function));
    // Private files and folders, set before the data folder or the engine is touched.
    expect(umask).toHaveBeenCalledWith(0o077); // PRIVATE_UMASK
    expect(umask.mock.invocationCallOrder[0]).toBeLessThan(
      fakes.startEngine.mock.invocationCallOrder[0] ?? 0,
    );
    umask.mockRestore();
  });

  it('hands the engine a fetch that goes through net.fetch (the system proxy)', async () => {
    const options = fakes.startEngine.mock.calls[0]?.[0] as { hostFetch?: HostFetch } | undefined;
    expect(options?.hostFetch).toBeTypeOf('function');
    const url = 'https://api.example.test/crimes.json?lat=1&lon=2&radius=0.01&key=secret-key-123';
    const signal = new AbortController().signal;
    const answer = await options!.hostFetch!({
      url,
      method: 'GET',
      headers: { Accept: 'application/json' },
      signal,
    });
    expect(fakes.netFetch).toHaveBeenCalledWith(url, {
      method: 'GET',
      headers: { Accept: 'application/json' },
      signal,
    });
    expect(answer).toMatchObject({ status: 200, headers: [['content-type', 'application/json']] });
    expect(new TextDecoder().decode(answer.body as Uint8Array)).toBe('{"crimes":[]}');
  });
});
