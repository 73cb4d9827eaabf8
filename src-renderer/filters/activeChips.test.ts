import { describe, expect, it } from 'vitest';
import type { Filters } from '../../src-shared/filters';
import { mergeFilters } from './FiltersContext';
import { activeChips } from './activeChips';

describe('the folded filter bar’s chips', () => {
  const on: Filters = { preset: '90d', types: ['Burglary', 'Theft'], weekdays: [6, 0], hours: [22, 6] };

  it('names each folded filter that is on, dates first, weekdays in week order', () => {
    expect(activeChips(on).map((c) => c.label)).toEqual([
      'Last 90 days',
      '22:00–06:00, overnight',
      'Sundays',
      'Saturdays',
      'Burglary',
      'Theft',
    ]);
    expect(activeChips({ preset: 'all' })).toEqual([]);
    expect(activeChips({ from: '2026-01-02', to: '2026-02-03' }, (d) => `day ${d}`)[0]?.label).toBe(
      'day 2026-01-02 – day 2026-02-03',
    );
    expect(activeChips({ from: '2026-01-02' })[0]?.label).toBe('Since 2026-01-02');
  });

  it('each chip removes exactly its own filter', () => {
    const after = (label: string) => {
      const chip = activeChips(on).find((c) => c.label === label);
      if (!chip) throw new Error(`no chip ${label}`);
      return mergeFilters(on, chip.remove);
    };
    expect(after('Burglary')).toEqual({ ...on, types: ['Theft'] });
    expect(after('Sundays')).toEqual({ ...on, weekdays: [6] });
    expect(after('22:00–06:00, overnight')).toEqual({
      preset: '90d',
      types: on.types,
      weekdays: on.weekdays,
    });
    expect(after('Last 90 days')).toEqual({ ...on, preset: 'all' });
    // Removing every chip leaves all history and nothing else.
    let filters: Filters = on;
    for (let chips = activeChips(filters); chips.length > 0; chips = activeChips(filters))
      filters = mergeFilters(filters, (chips[0] as (typeof chips)[number]).remove);
    expect(filters).toEqual({ preset: 'all' });
  });

  it('names an analysis cell opened from Analysis, and removing it keeps the area', () => {
    const polygon: [number, number][] = [
      [41.8, -87.7],
      [41.8, -87.6],
      [41.9, -87.6],
    ];
    const filters: Filters = {
      preset: '30d',
      area: { areaId: 3 },
      focus: { label: 'Gi* cell 24,25', polygon },
    };
    const chip = activeChips(filters).find((c) => c.key === 'focus');
    expect(chip?.label).toBe('Gi* cell 24,25');
    expect(chip?.removeLabel).toBe('Remove the filter Gi* cell 24,25');
    expect(mergeFilters(filters, chip!.remove)).toEqual({ preset: '30d', area: { areaId: 3 } });
  });
});
