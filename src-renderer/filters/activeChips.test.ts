import { describe, expect, it } from 'vitest';
import type { Filters } from '../../src-shared/filters';
import { mergeFilters } from './FiltersContext';
import { activeChips } from './activeChips';

describe('the folded filter bar’s chips', () => {
  const on: Filters = { preset: '90d', types: ['Burglary', 'Theft'], weekdays: [6, 0], hours: [22, 6] };

  it('names each folded filter that is on, dates first, weekdays Monday first', () => {
    expect(activeChips(on).map((c) => c.label)).toEqual([
      'Last 90 days',
      '22:00–06:00, overnight',
      'Saturdays',
      'Sundays',
      'Burglary',
      'Theft',
    ]);
    expect(activeChips({ preset: 'all' })).toEqual([]);
    expect(activeChips({ from: '2026-01-02', to: '2026-02-03' }, (d) => `day ${d}`)[0]?.label).toBe(
      'day 2026-01-02 – day 2026-02-03',
    );
    expect(activeChips({ from: '2026-01-02' })[0]?.label).toBe('Since 2026-01-02');
  });

  it('shows up to two chosen types or weekdays one by one, more as one chip that clears them', () => {
    const many: Filters = { preset: 'all', types: ['Theft', 'Fraud', 'Car prowl'], weekdays: [0, 5, 1] };
    const chips = activeChips(many);
    expect(chips.map((c) => [c.kind, c.label])).toEqual([
      ['weekday', 'Mon, Fri, Sun'],
      ['type', '3 types'],
    ]);
    expect(chips[1]?.removeLabel).toBe('Remove the types Theft, Fraud, Car prowl (all types)');
    expect(mergeFilters(many, chips[1]?.remove ?? {})).toEqual({ preset: 'all', weekdays: [0, 5, 1] });
    expect(mergeFilters(many, chips[0]?.remove ?? {})).toEqual({ preset: 'all', types: many.types });
    const two = activeChips({ types: ['Theft', 'Fraud'] });
    expect(two.map((c) => [c.kind, c.label])).toEqual([
      ['type', 'Theft'],
      ['type', 'Fraud'],
    ]);
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
