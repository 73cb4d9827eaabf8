import { describe, expect, it } from 'vitest';
import { ariaSort, canSortBy, DEFAULT_SORT, effectiveSort, nextSort } from './sortState';
import { tableCaption } from './sortText';

describe('table sorting', () => {
  it('starts each column in its natural direction and flips on a second click', () => {
    expect(nextSort(DEFAULT_SORT, 'date')).toEqual({ by: 'date', dir: 'asc' });
    expect(nextSort(DEFAULT_SORT, 'distance')).toEqual({ by: 'distance', dir: 'asc' });
    expect(nextSort({ by: 'address', dir: 'asc' }, 'address')).toEqual({ by: 'address', dir: 'desc' });
    expect(nextSort(DEFAULT_SORT, 'type')).toEqual({ by: 'type', dir: 'asc' });
  });

  it('sorts by distance only when the filter has an area, and falls back to date otherwise', () => {
    const near = { by: 'distance' as const, dir: 'asc' as const };
    expect(canSortBy('distance', {})).toBe(false);
    expect(canSortBy('distance', { area: { areaId: 1 } })).toBe(true);
    expect(effectiveSort(near, {})).toEqual(DEFAULT_SORT);
    expect(effectiveSort(near, { area: { circle: { lat: 1, lon: 2, radiusMi: 1 } } })).toEqual(near);
  });

  it('marks headers for assistive technology', () => {
    expect(ariaSort(DEFAULT_SORT, 'date')).toBe('descending');
    expect(ariaSort({ by: 'type', dir: 'asc' }, 'type')).toBe('ascending');
    expect(ariaSort(DEFAULT_SORT, 'address')).toBe('none');
  });

  it('captions the rows with their order and the distance centre', () => {
    expect(tableCaption(1_234, DEFAULT_SORT, null, null)).toBe('1,234 incidents, newest first');
    expect(tableCaption(1, { by: 'distance', dir: 'asc' }, { lat: 1, lon: 2 }, 'Denver')).toBe(
      '1 incident, nearest first · distances from the centre of Denver',
    );
  });
});
