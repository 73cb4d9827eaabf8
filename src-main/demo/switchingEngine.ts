/**
 * An EngineHandle whose engine can be replaced while the host keeps running: the demo switches a
 * window from the real data folder to the demo folder and back. Hosts hold this one handle (the
 * IPC loop, the web server, the quit hook); listeners stay subscribed across a switch.
 */
import type { EngineEvent } from '../../src-shared/contract';
import { createEventHub, createLogger, type EngineHandle } from '../engine/index';

export interface SwitchingEngine extends EngineHandle {
  readonly current: EngineHandle;
  /** From now on every call and event is `next`'s; then the previous engine is closed. */
  switchTo(next: EngineHandle): Promise<void>;
}

export function createSwitchingEngine(first: EngineHandle): SwitchingEngine {
  const hub = createEventHub(createLogger('demo'));
  let current = first;
  let unsubscribe = current.onEvent((event: EngineEvent) => hub.emit(event));
  return {
    get current() {
      return current;
    },
    call: (name, input) => current.call(name, input),
    onEvent: hub.subscribe,
    async switchTo(next) {
      const previous = current;
      unsubscribe();
      current = next;
      unsubscribe = next.onEvent((event: EngineEvent) => hub.emit(event));
      await previous.close();
    },
    async close() {
      unsubscribe();
      await current.close();
    },
  };
}
