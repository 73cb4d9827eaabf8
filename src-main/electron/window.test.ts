import { describe, expect, it } from 'vitest';
import type { BrowserWindowConstructorOptions } from 'electron';
import { createMainWindow, mainWindowOptions, type WindowLike } from './window';

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

  it('never turns a security preference off', () => {
    const prefs = mainWindowOptions('/p.cjs').webPreferences ?? {};
    expect(prefs.contextIsolation && prefs.sandbox && prefs.webSecurity).toBe(true);
    expect(prefs.nodeIntegration || prefs.webviewTag || prefs.allowRunningInsecureContent).toBe(false);
  });
});
