/**
 * The one application window. Its web preferences are the shell's security boundary: the renderer
 * runs sandboxed, isolated from the preload, with no Node; the preload is its only door (the typed
 * contract, see src-preload).
 *
 * No white flash: the window is created hidden with the page's own background colour (light or
 * dark, as the system's theme, which the page's CSS follows) and shown on `ready-to-show` — when
 * its first frame is painted. Should the page never paint (a hung renderer), it is shown after
 * SHOW_AT_THE_LATEST_MS anyway rather than leaving an app with no window.
 */
import type { BrowserWindowConstructorOptions } from 'electron';

export interface WindowLike {
  once(event: 'ready-to-show', listener: () => void): this;
  show(): void;
  loadURL(url: string): Promise<void>;
}

/** The page's background (`--bg` of src-renderer/styles/app.css) for each system theme. */
export const WINDOW_BACKGROUND = { light: '#f4f5f7', dark: '#14171c' } as const;

/** A window whose page has not painted by then is shown anyway. */
export const SHOW_AT_THE_LATEST_MS = 5000;

type Timers = {
  setTimeout: (run: () => void, ms: number) => unknown;
  clearTimeout: (timer: unknown) => void;
};

export interface MainWindowDeps<W extends WindowLike> {
  /** Electron's BrowserWindow (or a fake). */
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => W;
  /** Absolute path of the built preload (out/preload/index.cjs). */
  preloadPath: string;
  /** The app's page: see appUrl.ts. */
  appUrl: string;
  /** Whether the system uses dark colours (nativeTheme.shouldUseDarkColors). */
  dark?: boolean;
  /** The clock (tests pass fakes). */
  timers?: Timers;
}

export function mainWindowOptions(preloadPath: string, dark = false): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 800,
    minHeight: 560,
    show: false,
    title: 'Blotter',
    backgroundColor: dark ? WINDOW_BACKGROUND.dark : WINDOW_BACKGROUND.light,
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
  const win = new deps.BrowserWindow(mainWindowOptions(deps.preloadPath, deps.dark ?? false));
  const timers: Timers = deps.timers ?? {
    setTimeout: (run, ms) => setTimeout(run, ms),
    clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
  };
  let shown = false;
  const show = () => {
    if (shown) return;
    shown = true;
    timers.clearTimeout(latest);
    win.show();
  };
  const latest = timers.setTimeout(show, SHOW_AT_THE_LATEST_MS);
  win.once('ready-to-show', show);
  win.loadURL(deps.appUrl).catch((error: unknown) => console.error('[window] could not load the app', error));
  return win;
}
