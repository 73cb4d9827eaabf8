/** Loads settings and key status once, keeps them current from engine events, and offers a retry. */
import { useCallback, useEffect, useReducer } from 'react';
import type { EngineEvent } from '../../src-shared/contract';
import type { Client } from '../bridge/client';
import { errorText } from '../text/errorText';
import { appReducer, initialAppState, type AppState } from './appState';

export type AppStateHandle = {
  state: AppState;
  /** Applies a fresh value the way an engine event would (after a call returned it). */
  apply: (event: EngineEvent) => void;
  reload: () => void;
};

export function useAppState(client: Client): AppStateHandle {
  const [state, dispatch] = useReducer(appReducer, initialAppState);

  const load = useCallback(
    (isCancelled: () => boolean) => {
      dispatch({ type: 'loading' });
      // Each as it comes: the shell opens on the settings; the keychain may answer much later.
      const failed = (error: unknown) => {
        if (!isCancelled()) dispatch({ type: 'loadFailed', message: errorText(error) });
      };
      client.call('getSettings', {}).then((settings) => {
        if (!isCancelled()) dispatch({ type: 'event', event: { type: 'settingsChanged', settings } });
      }, failed);
      client.call('getKeyStatus', {}).then((status) => {
        if (!isCancelled()) dispatch({ type: 'event', event: { type: 'keyStatusChanged', status } });
      }, failed);
      client.call('getAppInfo', {}).then(
        (appInfo) => {
          if (!isCancelled()) dispatch({ type: 'appInfo', appInfo });
        },
        (error: unknown) => console.warn('Could not read the app info:', errorText(error)),
      );
    },
    [client],
  );

  useEffect(() => {
    let cancelled = false;
    const unsubscribe = client.onEvent((event) => dispatch({ type: 'event', event }));
    load(() => cancelled);
    return () => {
      cancelled = true;
      unsubscribe();
    };
  }, [client, load]);

  const apply = useCallback((event: EngineEvent) => dispatch({ type: 'event', event }), []);
  const reload = useCallback(() => load(() => false), [load]);
  return { state, apply, reload };
}
