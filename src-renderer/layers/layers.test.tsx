import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FilterBar } from '../filters/FilterBar';
import { TestWorkspace } from '../workspace/testWorkspace';
import { toMetres } from './layerFeatures';

describe('the layer filter in the filter bar', () => {
  it('shows a chip saying the distance in the unit given, with a remove button', () => {
    const html = renderToStaticMarkup(
      <TestWorkspace
        filters={{ feature: { layerId: 2, featureId: 7, bufferM: toMetres(1000, 'ft'), unit: 'ft' } }}
      >
        <FilterBar />
      </TestWorkspace>,
    );
    // Before the layer's names arrive the chip names the feature by its ids.
    expect(html).toContain('Within 1,000 ft of feature 7 of reference layer 2');
    expect(html).toContain('aria-label="Remove the layer filter"');
  });

  it('shows no chip without a layer filter, and "Inside" without a distance', () => {
    const none = renderToStaticMarkup(
      <TestWorkspace filters={{}}>
        <FilterBar />
      </TestWorkspace>,
    );
    expect(none).not.toContain('data-testid="feature-chip"');
    const inside = renderToStaticMarkup(
      <TestWorkspace filters={{ feature: { layerId: 1, featureId: 3 } }}>
        <FilterBar />
      </TestWorkspace>,
    );
    expect(inside).toContain('Inside feature 3 of reference layer 1');
  });

  it('turns feet into metres exactly (international foot)', () => {
    expect(toMetres(1000, 'ft')).toBeCloseTo(304.8, 12);
    expect(toMetres(250, 'm')).toBe(250);
  });
});
