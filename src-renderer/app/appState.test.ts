import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, viewOf } from '../../src-shared/settings';
import { appReducer, initialAppState, isReady } from './appState';

const settings = viewOf(DEFAULT_SETTINGS);
const keyStatus = { keySet: false, keychain: { available: true as const, backend: 'Secret Service' } };

describe('app state', () => {
  it('is ready once settings and key status have loaded', () => {
    expect(isReady(initialAppState)).toBe(false);
    const loaded = appReducer(initialAppState, { type: 'loaded', settings, keyStatus });
    expect(isReady(loaded)).toBe(true);
  });

  it('keeps a load failure until the next attempt starts', () => {
    const failed = appReducer(initialAppState, { type: 'loadFailed', message: 'Host gone' });
    expect(failed.loadError).toBe('Host gone');
    expect(appReducer(failed, { type: 'loading' }).loadError).toBeNull();
  });

  it('follows engine events for settings, key status and connectivity', () => {
    let state = appReducer(initialAppState, { type: 'loaded', settings, keyStatus });
    const pro = viewOf({ ...DEFAULT_SETTINGS, plan: 'pro-monthly' });
    state = appReducer(state, { type: 'event', event: { type: 'settingsChanged', settings: pro } });
    state = appReducer(state, {
      type: 'event',
      event: { type: 'keyStatusChanged', status: { ...keyStatus, keySet: true } },
    });
    state = appReducer(state, {
      type: 'event',
      event: { type: 'connectivity', online: false, message: 'No network' },
    });
    expect(state.settings?.effective.ratePerMinute).toBe(300);
    expect(state.keyStatus?.keySet).toBe(true);
    expect(state.connectivity).toEqual({ online: false, message: 'No network' });

    state = appReducer(state, { type: 'event', event: { type: 'connectivity', online: true } });
    expect(state.connectivity).toEqual({ online: true });
  });

  it('starts with connectivity unknown', () => {
    expect(initialAppState.connectivity.online).toBeNull();
  });
});
