/**
 * Quitting waits for the engine to close (its worker finishes the write in flight and closes the
 * SQLite file), but never longer than `timeoutMs`: a stuck engine must not keep the app alive.
 */
import { createLogger } from '../engine/index';

const log = createLogger('shell');

export interface QuitEvent {
  preventDefault(): void;
}

export interface QuittableApp {
  on(event: 'will-quit', listener: (event: QuitEvent) => void): this;
  quit(): void;
}

export function closeOnQuit(app: QuittableApp, close: () => Promise<void>, timeoutMs = 5_000): void {
  let state: 'running' | 'closing' | 'closed' = 'running';
  app.on('will-quit', (event) => {
    if (state === 'closed') return;
    event.preventDefault();
    if (state === 'closing') return;
    state = 'closing';
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        log.error(`the engine did not close within ${timeoutMs} ms; quitting anyway`);
        resolve();
      }, timeoutMs);
    });
    Promise.race([close(), timeout])
      .catch((error: unknown) => log.error('closing the engine failed', { error }))
      .finally(() => {
        clearTimeout(timer);
        state = 'closed';
        app.quit();
      });
  });
}
