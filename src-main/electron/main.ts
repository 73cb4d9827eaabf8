/**
 * The Electron main process: wiring only. Every piece it wires is a small module tested with fakes
 * (window.ts, hardening.ts, session.ts, ipc.ts, senderCheck.ts, events.ts, quit.ts,
 * netFetchBridge.ts); the work itself runs in the engine worker (out/main/engineWorker.js).
 */
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  nativeTheme,
  net,
  Notification,
  protocol,
  session,
  shell,
} from 'electron';
import { writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { startDemoHost } from '../demo/demoHost';
import {
  createLogger,
  PRIVATE_UMASK,
  resolveDataDir,
  sendScheduledReports,
  startEngine,
  withExportHooks,
  type EngineHandle,
} from '../engine/index';
import { alertNotifier } from './alertHooks';
import { handleAppProtocol, registerAppScheme } from './appProtocol';
import { appUrlOf, devServerUrlFrom, isAppUrl } from './appUrl';
import { contentSecurityPolicy } from './csp';
import { electronExportHooks } from './exportDialogs';
import { forwardEvents } from './events';
import { hardenWebContents } from './hardening';
import { registerCalls } from './ipc';
import { secretDestinationConfirmer } from './secretDestinationDialog';
import { netFetchBridge } from './netFetchBridge';
import { closeOnQuit } from './quit';
import { createReportPrinter } from './reportPrinter';
import { trustedSenderCheck } from './senderCheck';
import { hardenSession } from './session';
import { startWindowAndEngine } from './startup';
import { createMainWindow } from './window';

const here = import.meta.dirname;
const PRELOAD = join(here, '../preload/index.cjs');
const RENDERER_DIR = join(here, '../renderer');
const ENGINE_WORKER = join(here, 'engineWorker.js');

function fail(error: unknown): void {
  dialog.showErrorBox('Blotter cannot start', error instanceof Error ? error.message : String(error));
  app.exit(1);
}

function run(): void {
  // Every file and folder this process (and its worker threads, which share it) creates is the
  // user's alone: 0600 files, 0700 folders. Set before anything touches the disk.
  process.umask(PRIVATE_UMASK);
  // The renderer's own scheme (appProtocol.ts) must be registered before the app is ready.
  registerAppScheme(protocol);
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
  const appUrl = appUrlOf({ devServerUrl });
  const isApp = (url: string): boolean => isAppUrl(appUrl, url);
  let win: BrowserWindow | null = null;
  const currentWindow = (): BrowserWindow | null => (win && !win.isDestroyed() ? win : null);
  const openWindow = (): void => {
    win = createMainWindow({
      BrowserWindow,
      preloadPath: PRELOAD,
      appUrl,
      dark: nativeTheme.shouldUseDarkColors,
    });
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
    .then(() => {
      // Later: the user's online tile URL (Settings) joins the policy here.
      hardenSession(session.defaultSession, () => contentSecurityPolicy({ devServerUrl }));
      // app://blotter/… serves the built renderer folder, and nothing outside it.
      handleAppProtocol(protocol, {
        rendererDir: RENDERER_DIR,
        net,
        csp: () => contentSecurityPolicy({ devServerUrl }),
      });
      // The engine's HTTP requests (API, online map tiles) go through net.fetch — the system proxy
      // and certificates — over the worker's port (netFetchBridge.ts, engine/api/fetchBridge.ts).
      const hostFetch = netFetchBridge(net);
      // The window and the engine start together (startup.ts): the page loads while the worker
      // opens the database; its calls wait for the engine; it is shown at its first frame.
      startWindowAndEngine({
        // Demo mode (src-main/demo): `--demo` starts in it, and the welcome screen can start and
        // remove it; the simulator runs in this process, the demo data in `<data folder>-demo`.
        startEngine: async () =>
          (
            await startDemoHost({
              dataDir,
              demo: process.argv.includes('--demo'),
              startEngine: (o) =>
                startEngine({
                  ...o,
                  host: 'electron',
                  version: app.getVersion(),
                  workerPath: ENGINE_WORKER,
                  hostFetch,
                }),
            })
          ).engine,
        wire: (engine) => wire(engine),
        openWindow,
        fail,
      });
      app.on('activate', () => {
        if (!currentWindow()) openWindow();
      });
    })
    .catch(fail);

  /** The calls, events, hooks and quit on the engine handle (one that waits for the engine's start). */
  function wire(engine: EngineHandle): void {
    closeOnQuit(app, () => engine.close());
    // Exports and imports (engine/export/hostHooks.ts): the save and open dialogs choose the
    // files; PDF reports are printed from hidden report windows, which may call the engine too.
    const printer = createReportPrinter({
      BrowserWindow,
      preloadPath: PRELOAD,
      appUrl,
      isAppUrl: isApp,
      writeFile: (file, data) => writeFile(file, data, { mode: 0o600 }),
    });
    const exporting = withExportHooks(
      engine,
      electronExportHooks({
        dialog,
        window: currentWindow,
        defaultFolder: () => app.getPath('documents'),
        printReport: (job) => printer.print(job),
        join,
      }),
    );
    // Emailed bulletins: when the engine's timer says a schedule is due, the report printer prints
    // it into the data folder's exports/ (its .part file) with no save dialog, and the engine mails it.
    sendScheduledReports(
      engine,
      (job) => printer.print(job),
      (error) => createLogger('electron').warn('scheduled reports not sent', { error }),
    );
    const isMainWindow = trustedSenderCheck(currentWindow, isApp);
    registerCalls({
      ipcMain,
      engine: exporting,
      isTrustedSender: (event) => isMainWindow(event) || printer.isReportSender(event),
      // A new base URL takes the stored API key, and a new mail server the mail password, only
      // after the user says yes here.
      confirmSecretDestination: secretDestinationConfirmer<BrowserWindow>(dialog, currentWindow),
    });
    forwardEvents(engine, () => currentWindow()?.webContents);
    // Alerts raised by a sync: a desktop notification; a click brings the window forward.
    engine.onEvent(
      alertNotifier(Notification, () => {
        const w = currentWindow();
        if (w) {
          if (w.isMinimized()) w.restore();
          w.focus();
        } else openWindow();
      }),
    );
  }
}

try {
  run();
} catch (error) {
  app.whenReady().then(() => fail(error), fail);
}
