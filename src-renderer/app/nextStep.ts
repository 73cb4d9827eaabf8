/**
 * What the user has to do before Blotter can sync anything: the first missing piece of setup,
 * or null once the keychain, the key and the base URL are all in place.
 */
import type { KeyStatus } from '../../src-shared/secrets';
import type { SettingsView } from '../../src-shared/settings';
import type { ViewId } from './routes';

export type NextStep = { title: string; text: string; action: { view: ViewId; label: string } };

export function setupStep(settings: SettingsView, keyStatus: KeyStatus): NextStep | null {
  if (!keyStatus.keychain.available) {
    return {
      title: 'Blotter cannot store your API key yet',
      text: 'No keychain is reachable on this computer. Settings explains how to fix it.',
      action: { view: 'settings', label: 'Open Settings' },
    };
  }
  if (!keyStatus.keySet) {
    return {
      title: 'Start by adding your API key',
      text: 'Blotter needs your Crime Incident Data API key before it can sync incidents. Enter it in Settings.',
      action: { view: 'settings', label: 'Add your API key' },
    };
  }
  if (!settings.baseUrl) {
    return {
      title: 'Tell Blotter where the API lives',
      text: 'Enter the base URL of the Crime Incident Data API in Settings.',
      action: { view: 'settings', label: 'Set the base URL' },
    };
  }
  return null;
}
