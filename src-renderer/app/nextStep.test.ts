import { describe, expect, it } from 'vitest';
import type { KeyStatus } from '../../src-shared/secrets';
import { viewOf, DEFAULT_SETTINGS } from '../../src-shared/settings';
import { setupStep } from './nextStep';

const keychain = { available: true as const, backend: 'Secret Service' };
const noKeychain = {
  available: false as const,
  problem: 'No Secret Service.',
  fix: 'Install gnome-keyring.',
};
const configured = viewOf({ ...DEFAULT_SETTINGS, baseUrl: 'https://api.example.com' });

describe('setupStep', () => {
  it('asks for a keychain first', () => {
    const status: KeyStatus = { keySet: false, keychain: noKeychain };
    expect(setupStep(configured, status)?.title).toMatch(/cannot store your API key/);
  });

  it('then for the key', () => {
    expect(setupStep(configured, { keySet: false, keychain })?.action).toEqual({
      view: 'settings',
      label: 'Add your API key',
    });
  });

  it('then for the base URL', () => {
    expect(setupStep(viewOf(DEFAULT_SETTINGS), { keySet: true, keychain })?.title).toMatch(
      /base URL|API lives/,
    );
  });

  it('is done once all three are in place', () => {
    expect(setupStep(configured, { keySet: true, keychain })).toBeNull();
  });
});
