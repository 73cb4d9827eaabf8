/**
 * The Electron main process: wiring only. Every piece it wires is a small module tested with fakes
 * (window.ts, hardening.ts, session.ts, ipc.ts, senderCheck.ts, events.ts, quit.ts); the work
 * itself runs in the engine worker (out/main/engineWorker.js).
 */
import { app, BrowserWindow, dialog, ipcMain, session, shell } from 'electron';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { resolveDataDir } from '../engine/dataDir';
import { startEngine } from '../engine/engineClient';
import { appUrlOf, devServerUrlFrom, isAppUrl } from './appUrl';
import { contentSecurityPolicy } from './csp';
import { forwardEvents } from './events';
import { hardenWebContents } from './hardening';
import { registerCalls } from './ipc';
import { closeOnQuit } from './quit';
import { trustedSenderCheck } from './senderCheck';
import { hardenSession } from './session';
import { createMainWindow } from './window';

const here = import.meta.dirname;
const PRELOAD = join(here, '../preload/index.cjs');
const RENDERER_INDEX = join(here, '../renderer/index.html');
const ENGINE_WORKER = join(here, 'engineWorker.js');

function fail(error: unknown): void {
  dialog.showErrorBox('Blotter cannot start', error instanceof Error ? error.message : String(error));
  app.exit(1);
}

function run(): void {
  // One rule for every host (engine/dataDir.ts): --data-dir DIR, else BLOTTER_DATA_DIR, else the
  // platform's app-data folder for Blotter. Electron's own files (profile, instance lock) live there
  // too, so one window per data folder, and separate folders run side by side.
  const dataDir = resolveDataDir({
    argv: process.argv,
    env: process.env,
    platform: process.platform,
    homedir: homedir(),
  });
  app.setPath('userData', dataDir);
  app.setPath('sessionData', join(dataDir, 'electron'));
  if (!app.requestSingleInstanceLock()) {
    console.error(`Blotter is already open on ${dataDir}; focusing that window.`);
    app.quit();
    return;
  }
  app.enableSandbox();

  const devServerUrl = devServerUrlFrom(process.env, app.isPackaged);
  const appUrl = appUrlOf({ rendererIndex: RENDERER_INDEX, devServerUrl });
  const isApp = (url: string): boolean => isAppUrl(appUrl, url);
  let win: BrowserWindow | null = null;
  const currentWindow = (): BrowserWindow | null => (win && !win.isDestroyed() ? win : null);
  const openWindow = (): void => {
    win = createMainWindow({ BrowserWindow, preloadPath: PRELOAD, appUrl });
  };

  app.on('web-contents-created', (_event, contents) =>
    hardenWebContents(contents, { isAppUrl: isApp, openExternal: (url) => shell.openExternal(url) }),
  );
  app.on('second-instance', () => {
    const current = currentWindow();
    if (current?.isMinimized()) current.restore();
    current?.focus();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  app
    .whenReady()
    .then(async () => {
      // Later: the user's online tile URL (Settings) joins the policy here.
      hardenSession(session.defaultSession, () => contentSecurityPolicy({ devServerUrl }));
      // Seam for sync: inside Electron, API requests should use `net.fetch` (system proxy and
      // certificates). When startEngine's options accept a fetch/transport, pass it here.
      const engine = await startEngine({
        dataDir,
        host: 'electron',
        version: app.getVersion(),
        workerPath: ENGINE_WORKER,
      });
      closeOnQuit(app, () => engine.close());
      registerCalls({ ipcMain, engine, isTrustedSender: trustedSenderCheck(currentWindow, isApp) });
      forwardEvents(engine, () => currentWindow()?.webContents);
      openWindow();
      app.on('activate', () => {
        if (!currentWindow()) openWindow();
      });
    })
    .catch(fail);
}

try {
  run();
} catch (error) {
  app.whenReady().then(() => fail(error), fail);
}
