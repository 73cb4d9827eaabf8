/**
 * The one application window. Its web preferences are the shell's security boundary: the renderer
 * runs sandboxed, isolated from the preload, with no Node; the preload is its only door (the typed
 * contract, see src-preload).
 */
import type { BrowserWindowConstructorOptions } from 'electron';

export interface WindowLike {
  once(event: 'ready-to-show', listener: () => void): this;
  show(): void;
  loadURL(url: string): Promise<void>;
}

export interface MainWindowDeps<W extends WindowLike> {
  /** Electron's BrowserWindow (or a fake). */
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => W;
  /** Absolute path of the built preload (out/preload/index.cjs). */
  preloadPath: string;
  /** The app's page: see appUrl.ts. */
  appUrl: string;
}

export function mainWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 800,
    minHeight: 560,
    show: false,
    title: 'Blotter',
    backgroundColor: '#ffffff',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  };
}

export function createMainWindow<W extends WindowLike>(deps: MainWindowDeps<W>): W {
  const win = new deps.BrowserWindow(mainWindowOptions(deps.preloadPath));
  win.once('ready-to-show', () => win.show());
  win.loadURL(deps.appUrl).catch((error: unknown) => console.error('[window] could not load the app', error));
  return win;
}
