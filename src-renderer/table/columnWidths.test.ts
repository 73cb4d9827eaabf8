import { describe, expect, it } from 'vitest';
import { CELL_SLACK_PX, gridColumns, grownWidths, rowMinWidth } from './columnWidths';

describe("the incident table's column widths", () => {
  it('take the widest text seen, rounded up with slack, and never shrink', () => {
    const first = grownWidths([], [150.2, 60, 300]);
    expect(first).toEqual([151 + CELL_SLACK_PX, 60 + CELL_SLACK_PX, 300 + CELL_SLACK_PX]);
    // A later screen of shorter rows keeps the widths; a longer cell widens its column only.
    expect(grownWidths(first, [90, 80.5, 120])).toEqual([first[0], 81 + CELL_SLACK_PX, first[2]]);
  });

  it('ignore a column it could not measure', () => {
    expect(grownWidths([40, 50], [Number.NaN])).toEqual([40, 50]);
  });

  it('let the flexible column take the rest, never less than its content', () => {
    expect(gridColumns([190, 90, 300, 70, 60], 2)).toBe('190px 90px minmax(300px, 1fr) 70px 60px');
    expect(rowMinWidth([190, 90, 300, 70, 60], 8, 10)).toBe(190 + 90 + 300 + 70 + 60 + 4 * 8 + 20);
  });
});
