import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, viewOf } from '../../src-shared/settings';
import { setupStep } from '../app/nextStep';
import { ExportEmpty } from '../export/ExportEmpty';
import { ExportPanel } from '../export/ExportPanel';
import type { Client } from '../bridge/client';
import { TestWorkspace } from '../workspace/testWorkspace';
import { ExportView } from './ExportView';
import { HistoryEmpty, HistorySections, HistoryView } from './HistoryView';

const keychain = { available: true as const, backend: 'Secret Service' };
const ready = null;
const silent: Client = { call: () => new Promise(() => undefined), onEvent: () => () => undefined };
const needsKey = setupStep(viewOf(DEFAULT_SETTINGS), { keySet: false, keychain });

// History and Export read the workspace: they show their empty state once the archive summary says
// it holds nothing (e2e/views.spec.ts); these are those states, and the views while loading.
const empties = [
  { name: 'History', View: HistoryEmpty, says: /left the API&#x27;s data window/ },
  { name: 'Export', View: ExportEmpty, says: /CSV, GeoJSON or a PDF report/ },
];

describe('data views while empty', () => {
  for (const { name, View, says } of empties) {
    it(`${name} has its heading and says what to do next`, () => {
      const html = renderToStaticMarkup(<View setup={ready} />);
      expect(html).toContain(`>${name}</h1>`);
      expect(html).toMatch(says);
      expect(html).toMatch(/class="button primary" href="#\/(areas|settings)"/);
      expect(html).not.toContain('First:');
    });

    it(`${name} points to Settings first while no key is set`, () => {
      const html = renderToStaticMarkup(<View setup={needsKey} />);
      expect(html).toContain('First: </strong>');
      expect(html).toContain('href="#/settings"');
      expect(html).toContain('Add your API key');
    });
  }
});

describe('data views while loading', () => {
  it('History waits for the archive summary, then shows its sections', () => {
    const waiting = renderToStaticMarkup(
      <TestWorkspace>
        <HistoryView setup={ready} />
      </TestWorkspace>,
    );
    expect(waiting).toContain('>History</h1>');
    expect(waiting).toContain('Loading…');
    const loading = { data: null, error: null, loading: true, reload: () => undefined };
    const history = {
      series: loading,
      compare: loading,
      grid: loading,
      top: loading,
      coverage: loading,
      period: { from: 'a', to: 'b', fromFilter: true },
    };
    const html = renderToStaticMarkup(
      <HistorySections history={history} interval="week" onInterval={() => undefined} />,
    );
    for (const title of [
      'Incidents over time',
      'This period against earlier ones',
      'When incidents happen (local time)',
      'Top repeat locations',
      'What the archive holds',
    ])
      expect(html).toContain(`>${title}</h2>`);
    expect(html).toMatch(/aria-busy="true"/);
  });

  it('Export offers the formats for the filtered incidents', () => {
    const waiting = renderToStaticMarkup(
      <TestWorkspace>
        <ExportView setup={ready} />
      </TestWorkspace>,
    );
    expect(waiting).toContain('>Export</h1>');
    const html = renderToStaticMarkup(
      <TestWorkspace>
        <ExportPanel client={silent} filters={{ preset: '30d' }} dataVersion={0} web />
      </TestWorkspace>,
    );
    for (const label of ['CSV', 'GeoJSON', 'PDF report']) expect(html).toContain(`<strong>${label}</strong>`);
    expect(html).toContain('byte-order mark');
  });
});
