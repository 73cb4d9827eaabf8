import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Nav } from './Nav';
import { StartupScreen } from './StartupScreen';

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

// The status bar has its own tests: StatusBar.test.tsx.

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
