import { describe, expect, it } from 'vitest';
import { filterWords } from './filterWords';

describe('the filters in words', () => {
  it('names an analysis cell that narrows the area beside the area itself', () => {
    const words = filterWords(
      {
        area: { areaId: 2 },
        focus: {
          label: 'Gi* cell 24,25',
          polygon: [
            [41.8, -87.7],
            [41.8, -87.6],
            [41.9, -87.6],
          ],
        },
      },
      { areaName: () => 'Chicago' },
    );
    expect(words).toContain('Area: Chicago');
    expect(words).toContain('Within: Gi* cell 24,25');
  });
});
