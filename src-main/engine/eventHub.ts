/** Fan-out of engine events to a host's listeners; a failing listener is logged, never fatal. */
import type { EngineEvent } from '../../src-shared/contract';
import type { Logger } from './log';

export type EventHub = {
  emit(event: EngineEvent): void;
  /** Adds a listener; returns the unsubscribe function. */
  subscribe(listener: (event: EngineEvent) => void): () => void;
};

export function createEventHub(log: Logger): EventHub {
  const listeners = new Set<(event: EngineEvent) => void>();
  return {
    emit(event) {
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch (error) {
          log.error('an event listener failed', { event: event.type, error });
        }
      }
    },
    subscribe(listener) {
      const own = (event: EngineEvent): void => listener(event); // the same function may subscribe twice
      listeners.add(own);
      return () => listeners.delete(own);
    },
  };
}
