import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, viewOf } from '../../src-shared/settings';
import { apiProblem } from '../text/errorText';
import { linkStatus } from '../workspace/statusLine';
import { StatusBar } from './StatusBar';

const keychain = { available: true as const, backend: 'Secret Service' };
const settings = viewOf(DEFAULT_SETTINGS);

describe('status bar', () => {
  it('shows an unknown network state until anything is known, the key and the plan', () => {
    const html = renderToStaticMarkup(
      <StatusBar
        link={linkStatus({ online: null })}
        sync={null}
        failure={null}
        keyStatus={{ keySet: true, keychain }}
        settings={settings}
        appInfo={null}
      />,
    );
    expect(html).toContain('Network: not checked yet');
    expect(html).toContain('API key set');
    expect(html).toContain('Developer · 60/min · 90-day');
  });

  it('opens before the keychain answered: the key is being checked, the rest is there', () => {
    const html = renderToStaticMarkup(
      <StatusBar
        link={linkStatus({ online: null })}
        sync={null}
        failure={null}
        keyStatus={null}
        settings={settings}
        appInfo={null}
      />,
    );
    expect(html).toContain('Checking the API key…');
    expect(html).not.toContain('No API key set');
    expect(html).toContain('Developer · 60/min · 90-day');
  });

  it('says offline means the local archive, with the engine’s words as detail', () => {
    const html = renderToStaticMarkup(
      <StatusBar
        link={linkStatus({ online: false, message: 'The API cannot be reached' })}
        sync="Offline — waiting to retry in 3 s"
        failure={null}
        keyStatus={{ keySet: false, keychain }}
        settings={settings}
        appInfo={{ version: '1.2.3', host: 'electron', dataDir: '/d' }}
      />,
    );
    expect(html).toContain('data-online="offline"');
    expect(html).toContain('Offline — showing the local archive');
    expect(html).toContain('title="The API cannot be reached"');
    expect(html).toContain('Offline — waiting to retry in 3 s');
    expect(html).toContain('<a href="#/settings">No API key set</a>');
    expect(html).toContain('Blotter 1.2.3 · Desktop app');
  });

  it('puts a failure in plain words with what to do, linking Settings when the fix is there', () => {
    const html = renderToStaticMarkup(
      <StatusBar
        link={linkStatus({ online: true })}
        sync={null}
        failure={{ area: 'Denver', problem: apiProblem('unauthorized') }}
        keyStatus={{ keySet: true, keychain }}
        settings={settings}
        appInfo={null}
      />,
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain('Sync of Denver failed: The API refused the key (401: invalid or missing).');
    expect(html).toContain('Re-enter the API key in Settings.');
    expect(html).toContain('<a href="#/settings">Open Settings</a>');
  });

  it('names the allowlist for a 403 and what the office should ask for', () => {
    const problem = apiProblem('ip_not_allowed');
    expect(problem.problem).toMatch(/not on the key's allowlist/);
    expect(problem.action).toBe(
      "Ask the API operator to register your office's static IP address for this key.",
    );
    expect(problem.settings).toBe(false);
  });
});
