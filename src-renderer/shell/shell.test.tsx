import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, viewOf } from '../../src-shared/settings';
import { Nav } from './Nav';
import { StartupScreen } from './StartupScreen';
import { StatusBar } from './StatusBar';

const keychain = { available: true as const, backend: 'Secret Service' };

describe('navigation', () => {
  it('links every view by hash and marks only the current one', () => {
    const html = renderToStaticMarkup(<Nav current="history" />);
    expect(html).toContain('aria-label="Views"');
    for (const id of ['map', 'table', 'history', 'export', 'areas', 'settings']) {
      expect(html).toContain(`href="#/${id}"`);
    }
    expect(html.match(/aria-current="page"/g)).toHaveLength(1);
    expect(html).toMatch(/href="#\/history" aria-current="page"/);
  });
});

describe('status bar', () => {
  const settings = viewOf(DEFAULT_SETTINGS);

  it('shows an unknown network state until the engine reports one', () => {
    const html = renderToStaticMarkup(
      <StatusBar
        connectivity={{ online: null }}
        keyStatus={{ keySet: true, keychain }}
        settings={settings}
        appInfo={null}
      />,
    );
    expect(html).toContain('Network: not checked yet');
    expect(html).toContain('API key set');
    expect(html).toContain('Developer · 60/min · 90-day');
  });

  it('shows offline with the engine’s words and links to Settings when no key is set', () => {
    const html = renderToStaticMarkup(
      <StatusBar
        connectivity={{ online: false, message: 'The API cannot be reached' }}
        keyStatus={{ keySet: false, keychain }}
        settings={settings}
        appInfo={{ version: '1.2.3', host: 'electron', dataDir: '/d' }}
      />,
    );
    expect(html).toContain('data-online="offline"');
    expect(html).toContain('Offline · The API cannot be reached');
    expect(html).toContain('<a href="#/settings">No API key set</a>');
    expect(html).toContain('Blotter 1.2.3 · Desktop app');
  });
});

describe('startup screen', () => {
  it('shows loading, then a failure with a retry', () => {
    expect(renderToStaticMarkup(<StartupScreen error={null} onRetry={() => {}} />)).toContain(
      'Loading Blotter',
    );
    const failed = renderToStaticMarkup(<StartupScreen error="Host gone." onRetry={() => {}} />);
    expect(failed).toContain('role="alert"');
    expect(failed).toContain('Host gone.');
    expect(failed).toContain('Try again');
  });
});
