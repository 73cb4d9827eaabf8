import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, viewOf } from '../../src-shared/settings';
import { setupStep } from '../app/nextStep';
import { ExportView } from './ExportView';
import { HistoryView } from './HistoryView';

const keychain = { available: true as const, backend: 'Secret Service' };
const ready = null;
const needsKey = setupStep(viewOf(DEFAULT_SETTINGS), { keySet: false, keychain });

// Map, Table and Areas read the workspace (and Leaflet, which needs a DOM); their tests live in
// workspaceViews.test.tsx, map/ and the e2e journeys.
const views = [
  { name: 'History', View: HistoryView, says: /left the API&#x27;s data window/ },
  { name: 'Export', View: ExportView, says: /CSV file/ },
];

describe('data views while empty', () => {
  for (const { name, View, says } of views) {
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
