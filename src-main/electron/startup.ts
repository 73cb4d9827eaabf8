/**
 * The window and the engine start together (issue 13): the engine worker is started, the calls and
 * events are wired to an engine handle that waits for it, and the window is created at once — its
 * page loads (scripts, the map, the saved view) while the worker opens the database, and its first
 * calls are answered as soon as the engine is up. The window is still shown only on
 * `ready-to-show` (window.ts). Should the engine not start, every waiting call gets the reason and
 * `fail` tells the user.
 */
import type { BridgeError, EngineEvent, Result } from '../../src-shared/contract';
import type { EngineHandle } from '../engine/index';

/**
 * An engine handle usable before its engine exists: calls wait for `starting`, listeners attach
 * when it resolves (an unsubscribe before then just drops them), close waits for the start.
 */
export function engineWhenStarted(starting: Promise<EngineHandle>): EngineHandle {
  let failure: BridgeError | null = null;
  const started = starting.catch((error: unknown) => {
    failure = {
      code: 'internal',
      message: `The engine did not start: ${error instanceof Error ? error.message : String(error)}`,
    };
    return null;
  });
  return {
    async call(name, input) {
      const engine = await started;
      if (!engine) return { ok: false, error: failure as BridgeError } as Result<never>;
      return engine.call(name, input);
    },
    onEvent(listener: (event: EngineEvent) => void) {
      let unsubscribe: (() => void) | null = null;
      let dropped = false;
      void started.then((engine) => {
        if (engine && !dropped) unsubscribe = engine.onEvent(listener);
      });
      return () => {
        dropped = true;
        unsubscribe?.();
      };
    },
    async close() {
      await (await started)?.close();
    },
  };
}

export interface StartTogetherDeps {
  /** Starts the engine worker (and, in demo mode, the simulator); resolves once it answers. */
  startEngine: () => Promise<EngineHandle>;
  /** Registers the calls, events and hooks on the engine handle, before the page can call. */
  wire: (engine: EngineHandle) => void;
  /** Creates the main window (hidden until its first frame, window.ts). */
  openWindow: () => void;
  /** The engine did not start: tell the user, quit. */
  fail: (error: unknown) => void;
}

/** Starts the engine, wires it and opens the window without waiting for the engine; returns its handle. */
export function startWindowAndEngine(deps: StartTogetherDeps): EngineHandle {
  const starting = deps.startEngine();
  starting.catch(deps.fail);
  const engine = engineWhenStarted(starting);
  deps.wire(engine);
  deps.openWindow();
  return engine;
}
