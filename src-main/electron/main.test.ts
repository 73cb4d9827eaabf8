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
import { existsSync, readFileSync } from 'node:fs';
import { callNames, channelOf, type EngineEvent } from '../../src-shared/contract';
import type { HostFetch } from '../engine/api/fetchBridge';

const fakes = vi.hoisted(() => {
  const listeners = new Map<string, (...args: unknown[]) => void>();
  const windows: { options: { webPreferences?: Record<string, unknown> }; url?: string }[] = [];
  return {
    listeners,
    windows,
    handlers: new Map<string, unknown>(),
    paths: new Map<string, string>(),
    engine: {
      call: vi.fn(),
      onEvent: vi.fn((_listener: (e: EngineEvent) => void) => () => {}),
      close: vi.fn(async () => {}),
    },
    printToPDF: vi.fn(async () => new TextEncoder().encode('%PDF-1.7 scheduled')),
    showSaveDialog: vi.fn(),
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
    webContents = {
      id: 1,
      mainFrame: {},
      isDestroyed: () => false,
      send: vi.fn(),
      // A report window's page: drawn for the job its URL names (web/reportReadiness.ts).
      executeJavaScript: async () => ({
        loaded: true,
        app: true,
        ready: true,
        job: /job=([^&]+)/.exec((this as { url?: string }).url ?? '')?.[1],
      }),
      printToPDF: fakes.printToPDF,
    };
    constructor(readonly options: { webPreferences?: Record<string, unknown> }) {
      fakes.windows.push(this);
    }
    once() {
      return this;
    }
    isDestroyed() {
      return false;
    }
    destroy() {}
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
    dialog: { showErrorBox: vi.fn(), showSaveDialog: fakes.showSaveDialog, showOpenDialog: vi.fn() },
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

  it('on reportsDue, prints the due report with the report printer into the data folder, no dialog, and sends it once', async () => {
    const part = path.join(dataDir, 'exports', 'report.pdf.j1.part');
    const due = {
      scheduleId: 7,
      dueAt: 1_700_000_000_000,
      filters: { area: { areaId: 1 }, from: '2025-03-03', to: '2025-03-09' },
      report: { asOf: '2025-03-09', paper: 'letter' },
    };
    const listeners = fakes.engine.onEvent.mock.calls.map(([l]) => l);
    const emit = (e: EngineEvent) => listeners.forEach((l) => l(e));
    fakes.engine.call.mockImplementation(async (name: string, input: { jobId?: string }) => {
      if (name === 'claimDueReports') return { ok: true, value: { due: [due], leader: true } };
      if (name === 'startExport')
        return { ok: true, value: { jobId: 'j1', print: { token: 't1', file: part, paper: 'letter' } } };
      if (name === 'finishReport') {
        setTimeout(() => emit({ type: 'exportProgress', jobId: input.jobId, state: 'done' } as EngineEvent));
        return { ok: true, value: {} };
      }
      if (name === 'sendScheduledReport') return { ok: true, value: { sent: true } };
      return { ok: false, error: { code: 'internal', message: `unexpected ${name}` } };
    });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(path.dirname(part), { recursive: true });
    const before = fakes.windows.length;
    emit({ type: 'reportsDue', count: 1 });
    await vi.waitFor(() =>
      expect(fakes.engine.call).toHaveBeenCalledWith('sendScheduledReport', expect.anything()),
    );
    const calls = fakes.engine.call.mock.calls.map(([name, input]) => [name, input] as const);
    expect(calls.filter(([n]) => n === 'startExport')).toEqual([
      ['startExport', { format: 'pdf', filters: due.filters, report: due.report }],
    ]);
    expect(calls.filter(([n]) => n === 'sendScheduledReport')).toEqual([
      ['sendScheduledReport', { scheduleId: 7, dueAt: due.dueAt, jobId: 'j1' }],
    ]);
    expect(fakes.showSaveDialog).not.toHaveBeenCalled();
    expect(fakes.printToPDF).toHaveBeenCalledTimes(1);
    expect(fakes.windows.length).toBe(before + 1); // one hidden report window
    expect(fakes.windows.at(-1)?.url).toMatch(/#\/report\?job=j1/);
    expect(existsSync(part) && readFileSync(part, 'utf8')).toBe('%PDF-1.7 scheduled');
  });
});
