import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, viewOf } from '../../src-shared/settings';
import { setupStep } from '../app/nextStep';
import { FilterBar } from '../filters/FilterBar';
import { IncidentPanel } from '../incident/IncidentPanel';
import { activityReducer, initialActivity } from '../workspace/activity';
import { sampleArea, TestWorkspace } from '../workspace/testWorkspace';
import { AreasView } from './AreasView';
import { TableView } from './TableView';

const keychain = { available: true as const, backend: 'Secret Service' };
const needsKey = setupStep(viewOf(DEFAULT_SETTINGS), { keySet: false, keychain });

describe('the filter bar', () => {
  it('has a type picker with the chosen type as a chip, date presets, time of day, weekdays Monday first, search, area and the total', () => {
    const html = renderToStaticMarkup(
      <TestWorkspace areas={[sampleArea()]} filters={{ preset: '30d', types: ['Theft'], hours: [22, 6] }}>
        <FilterBar />
      </TestWorkspace>,
    );
    expect(html).toMatch(/aria-haspopup="dialog" aria-expanded="false"[^>]*>.*Types:.* 1 chosen/);
    expect(html).toContain('aria-label="Remove the type Theft"');
    expect(html).toMatch(/aria-pressed="true">30 days</);
    expect(html).toContain('All history');
    expect(html).toContain('aria-label="From hour"');
    expect(html).toMatch(/<option value="22" selected="">22:00/);
    expect(html).toContain('overnight');
    const days = [...html.matchAll(/title="(\w+day)"/g)].map((m) => m[1]);
    expect(days).toEqual(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']);
    expect(html).toContain('aria-label="Search address and description"');
    expect(html).toContain('>Denver downtown</option>');
    expect(html).toContain('data-testid="filtered-count"');
    expect(html).toContain('Clear all');
  });
});

describe('the Table view', () => {
  it('shows a sortable grid whose distance column waits for an area', () => {
    const html = renderToStaticMarkup(
      <TestWorkspace>
        <TableView setup={null} />
      </TestWorkspace>,
    );
    expect(html).toContain('>Table</h1>');
    expect(html).toContain('role="grid"');
    expect(html).toMatch(
      /role="columnheader" class="[^"]*" data-column="date" aria-sort="descending"><button[^>]*>Local date and time</,
    );
    // Every column can be resized from the keyboard too, and the columns can be chosen.
    expect(html).toMatch(
      /role="separator" aria-orientation="vertical" aria-label="Width of Local date and time"/,
    );
    expect(html).toContain('aria-controls="table-columns"');
    expect(html).toMatch(/title="Choose an area in the filters[^"]*"/);
  });
});

describe('the Areas view', () => {
  it('points to Settings first while no key is set', () => {
    const html = renderToStaticMarkup(
      <TestWorkspace>
        <AreasView setup={needsKey} />
      </TestWorkspace>,
    );
    expect(html).toContain('No areas yet');
    expect(html).toContain('href="#/settings"');
    expect(html).not.toContain('Add an area</h2>');
  });

  it('offers to add an area drawn on the map, by city or ZIP code, or by coordinates once set up', () => {
    const html = renderToStaticMarkup(
      <TestWorkspace>
        <AreasView setup={null} />
      </TestWorkspace>,
    );
    expect(html).toContain('Add an area</h2>');
    expect(html).toMatch(/aria-pressed="true">Draw on the map</);
    expect(html).toContain('City or ZIP code');
    expect(html).toContain('>Coordinates<');
    expect(html).toContain('Go to a city or ZIP code');
    expect(html).toContain('click the centre, then click again at the edge');
    expect(html).toContain('Nothing drawn yet.');
    expect(html).toContain('Loading the map…');
  });

  it('shows each area with its shape, schedule, live progress and actions', () => {
    const activity = activityReducer(initialActivity, {
      type: 'event',
      event: {
        type: 'syncProgress',
        areaId: 1,
        runId: 1,
        kind: 'backfill',
        state: 'running',
        planned: 10,
        done: 4,
        new: 120,
        updated: 0,
        removed: 0,
        etaSeconds: 30,
      },
    });
    const html = renderToStaticMarkup(
      <TestWorkspace areas={[sampleArea({ syncing: true })]} activity={activity}>
        <AreasView setup={null} />
      </TestWorkspace>,
    );
    expect(html).toContain('Denver downtown</h2>');
    expect(html).toContain('Circle of 1 mi around 39.7392, -104.9903');
    expect(html).toContain('role="progressbar"');
    expect(html).toContain('aria-valuenow="40"');
    expect(html).toContain('Syncing · 4 of 10 requests · 120 new, 0 updated, 0 removed · about 30 s left');
    expect(html).toContain('Stop sync');
    expect(html).toContain('role="switch"');
    expect(html).toContain('Delete…');
  });
});

describe('the incident panel', () => {
  it('loads by cdid and can be closed', () => {
    const html = renderToStaticMarkup(
      <TestWorkspace>
        <IncidentPanel cdid={42} onClose={() => undefined} />
      </TestWorkspace>,
    );
    expect(html).toContain('Incident 42');
    expect(html).toContain('aria-label="Close the incident"');
    expect(html).toContain('Loading…');
  });
});
