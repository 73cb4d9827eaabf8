/** Loads settings and key status once, keeps them current from engine events, and offers a retry. */
import { useCallback, useReducer } from 'react';
import type { EngineEvent } from '../../src-shared/contract';
import type { Client } from '../bridge/client';
import { useCurrentEffect } from '../bridge/useCall';
import { useEngineEvent } from '../bridge/useEngineEvent';
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
    (current: () => boolean) => {
      dispatch({ type: 'loading' });
      // Each as it comes: the shell opens on the settings; the keychain may answer much later.
      const failed = (error: unknown) => {
        if (current()) dispatch({ type: 'loadFailed', message: errorText(error) });
      };
      client.call('getSettings', {}).then((settings) => {
        if (current()) dispatch({ type: 'event', event: { type: 'settingsChanged', settings } });
      }, failed);
      client.call('getKeyStatus', {}).then((status) => {
        if (current()) dispatch({ type: 'event', event: { type: 'keyStatusChanged', status } });
      }, failed);
      client.call('getAppInfo', {}).then(
        (appInfo) => {
          if (current()) dispatch({ type: 'appInfo', appInfo });
        },
        (error: unknown) => console.warn('Could not read the app info:', errorText(error)),
      );
    },
    [client],
  );

  const apply = useCallback((event: EngineEvent) => dispatch({ type: 'event', event }), []);
  useEngineEvent(client, 'all', apply);
  useCurrentEffect((current) => load(current), [load]);
  const reload = useCallback(() => load(() => true), [load]);
  return { state, apply, reload };
}
