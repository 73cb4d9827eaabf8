import { describe, expect, it } from 'vitest';
import { hourMask, resolveDateRange, type Filters } from '../../src-shared/filters';
import { mergeFilters } from './FiltersContext';
import {
  areaFilterOf,
  DEFAULT_FILTERS,
  hoursPatch,
  hoursText,
  isDefault,
  presetPatch,
  rangePatch,
  rangeSwapped,
  textPatch,
  toggleType,
  toggleWeekday,
  totalOf,
  withoutTypes,
} from './filterModel';
import { rangeText } from './rangeText';

const apply = (filters: Filters, patch: Partial<Filters>) => mergeFilters(filters, patch);

describe('type chips', () => {
  it('adds and removes types; none left means every type (no key at all)', () => {
    let f = apply(DEFAULT_FILTERS, toggleType(DEFAULT_FILTERS, 'Theft'));
    expect(f.types).toEqual(['Theft']);
    f = apply(f, toggleType(f, 'Assault'));
    expect(f.types).toEqual(['Theft', 'Assault']);
    f = apply(f, toggleType(f, 'Theft'));
    f = apply(f, toggleType(f, 'Assault'));
    expect('types' in f).toBe(false);
  });

  it('labels chips with counts made without the type filter, and totals the chosen types', () => {
    const byType = { Theft: 51, Assault: 29, Arson: 3 };
    expect(withoutTypes({ preset: '7d', types: ['Theft'], hours: [22, 6] })).toEqual({
      preset: '7d',
      hours: [22, 6],
    });
    expect(totalOf(byType, undefined)).toBe(83);
    expect(totalOf(byType, ['Theft', 'Arson'])).toBe(54);
    expect(totalOf(byType, ['Shooting'])).toBe(0);
  });
});

describe('dates', () => {
  it('a preset drops a custom range, and a custom range drops the preset', () => {
    let f = apply({ from: '2026-01-01', to: '2026-02-01' }, presetPatch('30d'));
    expect(f).toEqual({ preset: '30d' });
    f = apply(f, rangePatch('2026-03-10', '2026-03-01'));
    expect(f).toEqual({ from: '2026-03-01', to: '2026-03-10' });
    expect(resolveDateRange(f, '2026-11-22')).toEqual({ from: '2026-03-01', to: '2026-03-10' });
  });

  it('an empty or impossible end leaves that end open', () => {
    expect(rangePatch('2026-02-30', '')).toEqual({ preset: undefined, from: undefined, to: undefined });
    expect(rangePatch('2026-02-01', '')).toEqual({ preset: undefined, from: '2026-02-01', to: undefined });
  });

  it('7, 30 and 90 days end today, inclusive', () => {
    const today = '2026-11-22';
    expect(resolveDateRange(apply({}, presetPatch('7d')), today)).toEqual({ from: '2026-11-16', to: today });
    expect(resolveDateRange(apply({}, presetPatch('all')), today)).toEqual({ from: null, to: null });
  });

  it('says the range in words (the runner’s locale, en-US)', () => {
    expect(rangeText({ from: '2026-08-25', to: '2026-11-22' })).toBe('Aug 25 – Nov 22, 2026');
    expect(rangeText({ from: '2025-12-30', to: '2026-01-02' })).toBe('Dec 30, 2025 – Jan 2, 2026');
    expect(rangeText({ from: null, to: null })).toBe('All history');
    expect(rangeText({ from: '2026-03-01', to: null })).toBe('Since Mar 1, 2026');
  });
});

describe('time of day', () => {
  it('wraps past midnight: 22:00 to 06:00 keeps 22, 23, 0 … 5', () => {
    const f = apply({}, hoursPatch(22, 6));
    expect(f.hours).toEqual([22, 6]);
    const mask = hourMask(f.hours);
    const kept = Array.from({ length: 24 }, (_, h) => h).filter((h) => mask & (1 << h));
    expect(kept).toEqual([0, 1, 2, 3, 4, 5, 22, 23]);
    expect(hoursText(f.hours)).toBe('22:00–06:00, overnight');
  });

  it('any time, or a range that is the whole day, is no filter', () => {
    expect(hoursPatch(null, 6)).toEqual({ hours: undefined });
    expect(hoursPatch(0, 24)).toEqual({ hours: undefined });
    expect(hoursPatch(7, 7)).toEqual({ hours: undefined });
    expect(hoursPatch(9, null)).toEqual({ hours: [9, 24] });
    expect(hoursText([9, 17])).toBe('09:00–17:00');
  });
});

describe('weekdays, text and clearing', () => {
  it('toggles weekdays; none or all seven means every day', () => {
    let f = apply({}, toggleWeekday({}, 6));
    f = apply(f, toggleWeekday(f, 0));
    expect(f.weekdays).toEqual([0, 6]);
    let all: Filters = {};
    for (let d = 0; d < 7; d++) all = apply(all, toggleWeekday(all, d));
    expect('weekdays' in all).toBe(false);
  });

  it('trims text and drops it when empty', () => {
    expect(textPatch('  oak st ')).toEqual({ text: 'oak st' });
    expect(textPatch('   ')).toEqual({ text: undefined });
  });

  it('knows when there is nothing to clear', () => {
    expect(isDefault(DEFAULT_FILTERS)).toBe(true);
    expect(isDefault({ preset: '90d', types: ['Theft'] })).toBe(false);
    expect(isDefault({ preset: '7d' })).toBe(false);
    expect(isDefault(apply({ preset: '90d', text: 'x' }, { text: undefined }))).toBe(true);
  });
});

describe('a drawn shape as the area', () => {
  it("turns what the map draws into the filter's circle or polygon", () => {
    expect(areaFilterOf({ kind: 'circle', lat: 39.7, lon: -105, radiusMi: 0.8 })).toEqual({
      circle: { lat: 39.7, lon: -105, radiusMi: 0.8 },
    });
    const points: [number, number][] = [
      [1, 2],
      [3, 4],
      [5, 6],
    ];
    expect(areaFilterOf({ kind: 'polygon', points })).toEqual({ polygon: points });
  });
});

describe('a custom range whose "to" is before its "from"', () => {
  it('is swapped, and the swap is reported so the bar can say so', () => {
    expect(rangePatch('2026-03-10', '2026-03-01')).toMatchObject({ from: '2026-03-01', to: '2026-03-10' });
    expect(rangeSwapped('2026-03-10', '2026-03-01')).toBe(true);
    expect(rangeSwapped('2026-03-01', '2026-03-10')).toBe(false);
    expect(rangeSwapped('2026-03-01', '2026-03-01')).toBe(false);
    expect(rangeSwapped('2026-03-10', '')).toBe(false);
  });
});
