/**
 * Engine events for a component: `useEngineEvent(client, ['basemapProgress'], (event) => …)` listens
 * while the component is there (one subscription per client, undone when it goes), to the named
 * event types only, each narrowed to its own shape (or to every event: `'all'`). The listener is read fresh on every event, so it
 * may use the latest props and state without subscribing again.
 */
import { useEffect, useRef } from 'react';
import type { EngineEvent } from '../../src-shared/contract';
import type { Client } from './client';

export type EngineEventType = EngineEvent['type'];
export type EngineEventOf<K extends EngineEventType> = Extract<EngineEvent, { type: K }>;

export function useEngineEvent<K extends EngineEventType>(
  client: Pick<Client, 'onEvent'>,
  types: readonly K[] | 'all',
  listener: (event: EngineEventOf<K>) => void,
): void {
  const listenerRef = useRef(listener);
  listenerRef.current = listener;
  const wanted = types === 'all' ? 'all' : types.join(' ');
  useEffect(() => {
    const names = new Set(wanted.split(' '));
    return client.onEvent((event) => {
      if (wanted === 'all' || names.has(event.type)) listenerRef.current(event as EngineEventOf<K>);
    });
  }, [client, wanted]);
}
