import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { KeyStatus } from '../../../src-shared/secrets';
import { DEFAULT_SETTINGS, viewOf } from '../../../src-shared/settings';
import type { Client } from '../../bridge/client';
import { SettingsView } from '../SettingsView';

const client: Client = {
  call: () => Promise.reject(new Error('not called while rendering')),
  onEvent: () => () => {},
};
const keychain = { available: true as const, backend: 'Secret Service' };
const appInfo = { version: '0.1.0', host: 'web' as const, dataDir: '/tmp/blotter-data' };

function render(keyStatus: KeyStatus, settings = viewOf(DEFAULT_SETTINGS)): string {
  return renderToStaticMarkup(
    <SettingsView
      client={client}
      settings={settings}
      keyStatus={keyStatus}
      appInfo={appInfo}
      apply={() => {}}
    />,
  );
}

describe('Settings view', () => {
  it('says that no key is set and offers a password field to enter one', () => {
    const html = render({ keySet: false, keychain });
    expect(html).toContain('No API key set');
    expect(html).toMatch(/<input[^>]*type="password"[^>]*autoComplete="off"[^>]*spellCheck="false"/);
    expect(html).toContain('Save key');
    expect(html).not.toContain('Remove key');
  });

  it('says that a key is set, offers to replace or remove it, and shows no key value', () => {
    const html = render({ keySet: true, keychain });
    expect(html).toContain('An API key is set');
    expect(html).toContain('Replace key');
    expect(html).toContain('Remove key…');
    expect(html).not.toMatch(/<input[^>]*type="password"[^>]*value=/);
  });

  it('explains a missing keychain and how to fix it, and disables key entry', () => {
    const html = render({
      keySet: false,
      keychain: { available: false, problem: 'No Secret Service answered.', fix: 'Start gnome-keyring.' },
    });
    expect(html).toContain('role="alert"');
    expect(html).toContain('No keychain available');
    expect(html).toContain('No Secret Service answered.');
    expect(html).toContain('Start gnome-keyring.');
    expect(html).toMatch(/<input[^>]*type="password"[^>]*disabled=""/);
    expect(html).toContain('Check again');
  });

  it('shows the base URL, the plan and the limits in force', () => {
    const html = render(
      { keySet: true, keychain },
      viewOf({ ...DEFAULT_SETTINGS, baseUrl: 'https://api.example.com', plan: 'pro-annual' }),
    );
    expect(html).toContain('value="https://api.example.com"');
    expect(html).toMatch(/<option value="pro-annual" selected="">Pro \(annual\)<\/option>/);
    expect(html).toContain('300 requests per minute');
    expect(html).toContain('182 days');
    expect(html).not.toContain('Rate (requests per minute)');
  });

  it('asks for Enterprise’s own rate and window', () => {
    const html = render(
      { keySet: true, keychain },
      viewOf({ ...DEFAULT_SETTINGS, plan: 'enterprise', ratePerMinute: 1200, windowDays: 730 }),
    );
    expect(html).toContain('Rate (requests per minute)');
    expect(html).toContain('Data window (days)');
    expect(html).toContain('value="1200"');
    expect(html).toContain('1,200 requests per minute');
    expect(html).toContain('730 days');
  });

  it('shows where the data lives', () => {
    expect(render({ keySet: false, keychain })).toContain('<code>/tmp/blotter-data</code>');
  });
});
