/** Engine events reach the window on the one event channel, while the window is alive. */
import { EVENT_CHANNEL, type EngineEvent } from '../../src-shared/contract';
import type { EngineHandle } from '../engine/index';

export interface EventSink {
  isDestroyed(): boolean;
  send(channel: string, event: EngineEvent): void;
}

/** Forwards every engine event to the current window's web contents; returns the unsubscribe. */
export function forwardEvents(
  engine: Pick<EngineHandle, 'onEvent'>,
  target: () => EventSink | null | undefined,
): () => void {
  return engine.onEvent((event) => {
    const contents = target();
    if (contents && !contents.isDestroyed()) contents.send(EVENT_CHANNEL, event);
  });
}
