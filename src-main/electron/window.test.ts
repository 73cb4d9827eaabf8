import { describe, expect, it } from 'vitest';
import type { BrowserWindowConstructorOptions } from 'electron';
import {
  createMainWindow,
  mainWindowOptions,
  SHOW_AT_THE_LATEST_MS,
  WINDOW_BACKGROUND,
  type WindowLike,
} from './window';

class FakeWindow implements WindowLike {
  static created: FakeWindow[] = [];
  readonly loaded: string[] = [];
  readonly onceListeners = new Map<string, () => void>();
  shown = false;
  constructor(readonly options: BrowserWindowConstructorOptions) {
    FakeWindow.created.push(this);
  }
  once(event: 'ready-to-show', listener: () => void): this {
    this.onceListeners.set(event, listener);
    return this;
  }
  show(): void {
    this.shown = true;
  }
  loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    return Promise.resolve();
  }
}

describe('createMainWindow', () => {
  it('isolates and sandboxes the renderer, with the preload as its only door', () => {
    const win = createMainWindow({
      BrowserWindow: FakeWindow,
      preloadPath: '/app/out/preload/index.cjs',
      appUrl: 'file:///app/out/renderer/index.html',
    });
    expect(win.options.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    });
    expect(win.loaded).toEqual(['file:///app/out/renderer/index.html']);
  });

  it('shows the window only once it has painted', () => {
    const win = createMainWindow({
      BrowserWindow: FakeWindow,
      preloadPath: '/p.cjs',
      appUrl: 'file:///i.html',
    });
    expect(win.options.show).toBe(false);
    expect(win.shown).toBe(false);
    win.onceListeners.get('ready-to-show')?.();
    expect(win.shown).toBe(true);
  });

  it('is shown at its first frame, not before and only once, in the theme’s background (no white flash)', () => {
    let now = 0;
    const due: { at: number; run: () => void; cleared: boolean }[] = [];
    const timers = {
      setTimeout: (run: () => void, ms: number) => {
        const t = { at: now + ms, run, cleared: false };
        due.push(t);
        return t;
      },
      clearTimeout: (t: unknown) => void ((t as { cleared: boolean }).cleared = true),
    };
    const advance = (ms: number) => {
      now += ms;
      for (const t of due) {
        if (t.cleared || t.at > now) continue;
        t.cleared = true;
        t.run();
      }
    };
    let shows = 0;
    class Counting extends FakeWindow {
      override show(): void {
        shows++;
        super.show();
      }
    }
    const dark = createMainWindow({
      BrowserWindow: Counting,
      preloadPath: '/p.cjs',
      appUrl: 'x',
      dark: true,
      timers,
    });
    expect(dark.options.backgroundColor).toBe(WINDOW_BACKGROUND.dark);
    advance(SHOW_AT_THE_LATEST_MS - 1);
    expect(dark.shown).toBe(false); // loading, not painted: still hidden
    dark.onceListeners.get('ready-to-show')?.();
    expect(dark.shown).toBe(true);
    advance(10_000);
    expect(shows).toBe(1); // the fallback was cancelled

    const light = createMainWindow({ BrowserWindow: FakeWindow, preloadPath: '/p.cjs', appUrl: 'x', timers });
    expect(light.options.backgroundColor).toBe(WINDOW_BACKGROUND.light);
    advance(SHOW_AT_THE_LATEST_MS);
    expect(light.shown).toBe(true); // a page that never paints does not leave the app windowless
  });

  it('never turns a security preference off', () => {
    const prefs = mainWindowOptions('/p.cjs').webPreferences ?? {};
    expect(prefs.contextIsolation && prefs.sandbox && prefs.webSecurity).toBe(true);
    expect(prefs.nodeIntegration || prefs.webviewTag || prefs.allowRunningInsecureContent).toBe(false);
  });
});
