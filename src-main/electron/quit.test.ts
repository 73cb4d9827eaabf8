import { describe, expect, it, vi } from 'vitest';
import { closeOnQuit, type QuitEvent, type QuittableApp } from './quit';

function fakeApp() {
  let listener: ((event: QuitEvent) => void) | undefined;
  const app = {
    on: (_event: 'will-quit', l: (event: QuitEvent) => void) => ((listener = l), app),
    quit: vi.fn(() => {
      const event = { preventDefault: vi.fn() };
      listener?.(event);
      return event;
    }),
  };
  return app as typeof app & QuittableApp;
}

describe('closeOnQuit', () => {
  it('holds the quit until the engine has closed, then quits once', async () => {
    const app = fakeApp();
    let finish: () => void = () => {};
    const close = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    closeOnQuit(app, close);
    const first = app.quit() as unknown as QuitEvent & { preventDefault: ReturnType<typeof vi.fn> };
    expect(first.preventDefault).toHaveBeenCalled();
    app.quit();
    expect(close).toHaveBeenCalledTimes(1);
    finish();
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(3));
  });

  it('quits anyway when the engine does not close in time', async () => {
    vi.useFakeTimers();
    try {
      const app = fakeApp();
      closeOnQuit(app, () => new Promise<void>(() => {}), 1_000);
      app.quit();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(app.quit).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
