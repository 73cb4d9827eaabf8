import { describe, expect, it } from 'vitest';
import { periodAt, periodCount, periodFilters, periodText, sliceOf } from './playbackModel';

// 2026-11-18 is a Wednesday. Days 18…25 hold 1, 0, 2, 3, 0, 0, 1, 4 incidents.
const points = { firstDay: '2026-11-18', offsets: Uint32Array.from([0, 1, 1, 3, 6, 6, 6, 7, 11]) };

describe('playback periods', () => {
  it('steps by day over the data’s days, each a slice of the day-sorted columns', () => {
    expect(periodCount(points, 'day')).toBe(8);
    expect(periodAt(points, 'day', 0)).toEqual({ from: '2026-11-18', to: '2026-11-18' });
    expect(sliceOf(points, { from: '2026-11-20', to: '2026-11-20' })).toEqual([1, 3]);
    expect(sliceOf(points, { from: '2026-11-19', to: '2026-11-19' })).toEqual([1, 1]);
    expect(periodAt(points, 'day', 8)).toBeNull();
  });

  it('steps by Monday weeks, the first and last cut by the data', () => {
    expect(periodCount(points, 'week')).toBe(2);
    const first = periodAt(points, 'week', 0);
    expect(first).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(sliceOf(points, first!)).toEqual([0, 6]);
    const second = periodAt(points, 'week', 1);
    expect(second).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(sliceOf(points, second!)).toEqual([6, 11]);
    expect(periodText(second!, 'week')).toBe('Week of Nov 23 – Nov 29, 2026');
    expect(periodText({ from: '2026-11-18', to: '2026-11-18' }, 'day')).toBe('Wed, Nov 18, 2026');
  });

  it('has no periods without incidents', () => {
    const none = { firstDay: null, offsets: new Uint32Array(1) };
    expect(periodCount(none, 'week')).toBe(0);
    expect(sliceOf(none, { from: '2026-11-18', to: '2026-11-18' })).toEqual([0, 0]);
  });

  it('gives the filter of a period: its dates instead of the preset, the rest kept', () => {
    expect(
      periodFilters({ preset: '90d', types: ['Theft'] }, { from: '2026-11-16', to: '2026-11-22' }),
    ).toEqual({ types: ['Theft'], from: '2026-11-16', to: '2026-11-22' });
  });
});
