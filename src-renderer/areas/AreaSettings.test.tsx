import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AreaView } from '../../src-shared/sync';
import { TestWorkspace } from '../workspace/testWorkspace';
import { AreaSettings } from './AreaSettings';

const area = (paused: boolean): AreaView => ({
  id: 1,
  name: 'Downtown',
  shape: { kind: 'circle', lat: 41.88, lon: -87.63, radiusMi: 2 },
  refreshMinutes: 60,
  paused,
  createdAt: 1,
  lastSyncedAt: null,
  backfilledAt: null,
  lastRun: null,
  syncing: false,
});

const render = (paused: boolean) =>
  renderToStaticMarkup(
    <TestWorkspace>
      <AreaSettings area={area(paused)} onProblem={() => undefined} />
    </TestWorkspace>,
  );

/** The switch input's markup. */
const switchOf = (html: string) => /<input[^>]*role="switch"[^>]*>/.exec(html)?.[0] ?? '';

describe('the automatic refresh switch', () => {
  it('is on, and says On, while the area refreshes by itself', () => {
    const html = render(false);
    expect(switchOf(html)).toContain('checked=""');
    expect(html).toContain('Refresh automatically');
    expect(html).toMatch(/data-testid="auto-refresh-state">On</);
    expect(html).not.toContain('Paused<');
  });

  it('is off, and says so, while the area is paused', () => {
    const html = render(true);
    expect(switchOf(html)).not.toContain('checked');
    expect(html).toMatch(/data-testid="auto-refresh-state">Off — paused/);
  });
});
