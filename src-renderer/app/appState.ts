/**
 * What the whole renderer knows about the engine: settings, key status (never the key),
 * connectivity and the app's identity. One reducer, fed by the first load and by engine events.
 */
import type { CallOutput, EngineEvent } from '../../src-shared/contract';
import type { KeyStatus } from '../../src-shared/secrets';
import type { SettingsView } from '../../src-shared/settings';

export type AppInfo = CallOutput<'getAppInfo'>;

export type Connectivity = { online: boolean | null; message?: string };

export type AppState = {
  settings: SettingsView | null;
  keyStatus: KeyStatus | null;
  appInfo: AppInfo | null;
  connectivity: Connectivity;
  /** Why the first load failed, in plain words; null while loading or once loaded. */
  loadError: string | null;
};

export type AppAction =
  | { type: 'loading' }
  | { type: 'loaded'; settings: SettingsView; keyStatus: KeyStatus }
  | { type: 'loadFailed'; message: string }
  | { type: 'appInfo'; appInfo: AppInfo }
  | { type: 'event'; event: EngineEvent };

export const initialAppState: AppState = {
  settings: null,
  keyStatus: null,
  appInfo: null,
  connectivity: { online: null },
  loadError: null,
};

export const isReady = (state: AppState): boolean => state.settings !== null && state.keyStatus !== null;

function applyEvent(state: AppState, event: EngineEvent): AppState {
  switch (event.type) {
    case 'settingsChanged':
      return { ...state, settings: event.settings };
    case 'keyStatusChanged':
      return { ...state, keyStatus: event.status };
    case 'connectivity':
      return {
        ...state,
        connectivity: event.message
          ? { online: event.online, message: event.message }
          : { online: event.online },
      };
    default:
      // Other events (sync progress …) belong to the views that show them.
      return state;
  }
}

export function appReducer(state: AppState, action: AppAction): AppState {
  switch (action.type) {
    case 'loading':
      return { ...state, loadError: null };
    case 'loaded':
      return { ...state, settings: action.settings, keyStatus: action.keyStatus, loadError: null };
    case 'loadFailed':
      return { ...state, loadError: action.message };
    case 'appInfo':
      return { ...state, appInfo: action.appInfo };
    case 'event':
      return applyEvent(state, action.event);
  }
}
