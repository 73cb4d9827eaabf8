import { describe, expect, it, vi } from 'vitest';
import type { BrowserWindowConstructorOptions } from 'electron';
import type { EngineEvent } from '../../src-shared/contract';
import type { EngineHandle } from '../engine/index';
import { engineWhenStarted, startWindowAndEngine } from './startup';
import { createMainWindow, type WindowLike } from './window';

/** A window that records what happened to it, in one shared log. */
function fakeWindowClass(log: string[]) {
  return class FakeWindow implements WindowLike {
    readonly ready: (() => void)[] = [];
    shown = false;
    constructor(readonly options: BrowserWindowConstructorOptions) {
      log.push('window created');
    }
    once(_event: 'ready-to-show', listener: () => void): this {
      this.ready.push(listener);
      return this;
    }
    show(): void {
      this.shown = true;
      log.push('window shown');
    }
    loadURL(): Promise<void> {
      log.push('page loading');
      return Promise.resolve();
    }
  };
}

/** An engine whose start the test finishes, and that logs its calls. */
function startingEngine(log: string[]) {
  const listeners = new Set<(event: EngineEvent) => void>();
  const engine: EngineHandle = {
    call: vi.fn(async (name: string) => {
      log.push(`engine answered ${name}`);
      return { ok: true as const, value: { name } as never };
    }),
    onEvent: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
    close: vi.fn(async () => void log.push('engine closed')),
  };
  let finish!: () => void;
  let refuse!: (error: Error) => void;
  const started = new Promise<EngineHandle>((resolve, reject) => {
    finish = () => (log.push('engine ready'), resolve(engine));
    refuse = reject;
  });
  return { engine, started, finish, refuse, listeners };
}

describe('the window and the engine start together', () => {
  it('creates the window while the engine worker starts, shows it only at its first frame, and answers its early calls once the engine is up', async () => {
    const log: string[] = [];
    const start = startingEngine(log);
    const Window = fakeWindowClass(log);
    let win: InstanceType<typeof Window> | null = null;
    let wired: EngineHandle | null = null;
    const fail = vi.fn();

    startWindowAndEngine({
      startEngine: () => (log.push('engine starting'), start.started),
      wire: (engine) => {
        wired = engine;
        log.push('calls wired');
      },
      openWindow: () => {
        win = createMainWindow({ BrowserWindow: Window, preloadPath: '/p.cjs', appUrl: 'app://blotter/' });
      },
      fail,
    });

    // Both are under way before the engine has answered anything.
    expect(log).toEqual(['engine starting', 'calls wired', 'window created', 'page loading']);
    expect(win!.shown).toBe(false); // hidden until its first frame

    // The page calls before the engine is up: the call waits, it is not refused.
    const early = wired!.call('getMapSketch', { zoom: 11 });
    const events: EngineEvent[] = [];
    wired!.onEvent((event) => events.push(event));
    await Promise.resolve();
    expect(log).not.toContain('engine answered getMapSketch');

    // The first frame may come before the engine is ready: the window shows then, still once.
    win!.ready.forEach((show) => show());
    expect(win!.shown).toBe(true);

    start.finish();
    expect(await early).toEqual({ ok: true, value: { name: 'getMapSketch' } });
    expect(log.indexOf('engine ready')).toBeLessThan(log.indexOf('engine answered getMapSketch'));
    // Listeners registered before the start reach the engine's events after it.
    await vi.waitFor(() => expect(start.listeners.size).toBe(1));
    start.listeners.forEach((l) => l({ type: 'settingsChanged' } as EngineEvent));
    expect(events).toHaveLength(1);
    expect(log.filter((l) => l === 'window shown')).toHaveLength(1);
    expect(fail).not.toHaveBeenCalled();
  });

  it('tells the user when the engine does not start, and answers the waiting calls with the reason', async () => {
    const log: string[] = [];
    const start = startingEngine(log);
    const fail = vi.fn();
    const engine = startWindowAndEngine({
      startEngine: () => start.started,
      wire: () => undefined,
      openWindow: () => log.push('window created'),
      fail,
    });
    const waiting = engine.call('getSettings', {});
    start.refuse(new Error('This data file was written by a newer version of Blotter.'));
    expect(await waiting).toEqual({
      ok: false,
      error: {
        code: 'internal',
        message: 'The engine did not start: This data file was written by a newer version of Blotter.',
      },
    });
    expect(fail).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringContaining('newer') }));
    expect(log).toEqual(['window created']);
    await engine.close(); // nothing to close: it resolves
  });

  it('closes the engine once started, and drops a listener removed before the start', async () => {
    const log: string[] = [];
    const start = startingEngine(log);
    const engine = engineWhenStarted(start.started);
    const off = engine.onEvent(() => undefined);
    off();
    const closing = engine.close();
    start.finish();
    await closing;
    expect(log).toEqual(['engine ready', 'engine closed']);
    expect(start.listeners.size).toBe(0);
  });
});
