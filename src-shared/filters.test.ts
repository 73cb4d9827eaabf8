import { describe, expect, it } from 'vitest';
import {
  CRIME_TYPES,
  dayNumber,
  dayString,
  Filters,
  hourMask,
  resolveDateRange,
  sameDayLastYear,
  weekdayOf,
} from './filters';

const hoursOf = (mask: number): number[] =>
  Array.from({ length: 24 }, (_, h) => h).filter((h) => (mask >>> h) & 1);

describe('local days', () => {
  it('converts between YYYY-MM-DD and day numbers, refusing impossible dates', () => {
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayString(dayNumber('2024-02-29'))).toBe('2024-02-29');
    for (const bad of ['2023-02-29', '2024-13-01', '2024-1-1', 'yesterday', ''])
      expect(dayNumber(bad)).toBeNaN();
  });

  it('knows weekdays (0 = Sunday) and the same day a year earlier', () => {
    expect(weekdayOf(dayNumber('2025-03-16'))).toBe(0);
    expect(weekdayOf(dayNumber('2025-03-15'))).toBe(6);
    expect(weekdayOf(dayNumber('1969-12-31'))).toBe(3);
    expect(dayString(sameDayLastYear(dayNumber('2024-02-29')))).toBe('2023-02-28');
    expect(dayString(sameDayLastYear(dayNumber('2025-03-01')))).toBe('2024-03-01');
  });
});

describe('Filters', () => {
  it('accepts the full filter state and refuses nonsense with a field', () => {
    expect(
      Filters.parse({
        types: [...CRIME_TYPES, 'Fraud'],
        from: '2025-01-01',
        to: '2025-01-31',
        hours: [22, 6],
        weekdays: [0, 6],
        text: 'main',
        area: {
          polygon: [
            [41, -87],
            [42, -87],
            [42, -88],
          ],
        },
        includeRemoved: true,
      }),
    ).toBeTruthy();
    expect(Filters.safeParse({ from: '2025-02-01', to: '2025-01-01' }).error?.issues[0]?.path).toEqual([
      'to',
    ]);
    for (const bad of [
      { from: '2025-02-30' },
      { hours: [24, 3] },
      { hours: [3, 25] },
      { weekdays: [7] },
      {
        area: {
          polygon: [
            [41, -87],
            [42, -87],
          ],
        },
      },
      { area: { circle: { lat: 91, lon: 0, radiusMi: 1 } } },
      { area: { circle: { lat: 41, lon: -87, radiusMi: 0 } } },
      { area: { areaId: 1, circle: { lat: 41, lon: -87, radiusMi: 1 } } },
      { preset: '1y' },
      { extra: true },
    ]) {
      expect(Filters.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('resolves presets against today, inclusive', () => {
    expect(resolveDateRange({ preset: '7d' }, '2025-03-14')).toEqual({
      from: '2025-03-08',
      to: '2025-03-14',
    });
    expect(resolveDateRange({ preset: '30d', from: '2020-01-01' }, '2025-03-14')).toEqual({
      from: '2025-02-13',
      to: '2025-03-14',
    });
    expect(resolveDateRange({ preset: '90d' }, '2024-03-01')).toEqual({
      from: '2023-12-03',
      to: '2024-03-01',
    });
    expect(resolveDateRange({ preset: 'all', from: '2020-01-01' }, '2025-03-14')).toEqual({
      from: null,
      to: null,
    });
    expect(resolveDateRange({ from: '2020-01-01' }, '2025-03-14')).toEqual({ from: '2020-01-01', to: null });
  });

  it('reads hours as [start, end) in local time, wrapping past midnight', () => {
    expect(hoursOf(hourMask(undefined))).toHaveLength(24);
    expect(hoursOf(hourMask([9, 17]))).toEqual([9, 10, 11, 12, 13, 14, 15, 16]);
    expect(hoursOf(hourMask([22, 3]))).toEqual([0, 1, 2, 22, 23]);
    expect(hoursOf(hourMask([20, 24]))).toEqual([20, 21, 22, 23]);
    expect(hoursOf(hourMask([0, 24]))).toHaveLength(24);
    expect(hoursOf(hourMask([7, 7]))).toHaveLength(24);
    expect(hoursOf(hourMask([23, 0]))).toEqual([23]);
  });
});
