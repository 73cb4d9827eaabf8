import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Legend } from '../Legend';
import {
  frameEntries,
  PLAY_SPEEDS,
  periodAt,
  periodByType,
  periodCount,
  periodFilters,
  periodInView,
  periodText,
  playInterval,
  sliceOf,
  speedText,
  toPixel,
} from './playbackModel';

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

  it('steps by Monday weeks, the first and last cut to the data’s days', () => {
    expect(periodCount(points, 'week')).toBe(2);
    const first = periodAt(points, 'week', 0);
    expect(first).toEqual({ from: '2026-11-18', to: '2026-11-22' });
    expect(sliceOf(points, first!)).toEqual([0, 6]);
    const second = periodAt(points, 'week', 1);
    expect(second).toEqual({ from: '2026-11-23', to: '2026-11-25' });
    expect(sliceOf(points, second!)).toEqual([6, 11]);
    expect(periodText(second!, 'week')).toBe('Week of Nov 23 – Nov 25, 2026');
    expect(periodText({ from: '2026-11-18', to: '2026-11-18' }, 'day')).toBe('Wed, Nov 18, 2026');
  });

  it('keeps every period inside the filter’s dates', () => {
    // The filter: Thursday 19 to Tuesday 24 November (the columns hold the 18th to the 25th).
    const dated = { ...points, from: '2026-11-19', to: '2026-11-24' };
    const weeks = Array.from({ length: periodCount(dated, 'week') }, (_, k) => periodAt(dated, 'week', k)!);
    expect(weeks).toEqual([
      { from: '2026-11-19', to: '2026-11-22' },
      { from: '2026-11-23', to: '2026-11-24' },
    ]);
    expect(periodCount(dated, 'day')).toBe(6);
    expect(periodAt(dated, 'day', 0)).toEqual({ from: '2026-11-19', to: '2026-11-19' });
    expect(periodAt(dated, 'day', 5)).toEqual({ from: '2026-11-24', to: '2026-11-24' });
    expect(sliceOf(dated, weeks[0]!)).toEqual([1, 6]);
    // A filter wider than the data: the data's days.
    expect(periodAt({ ...points, from: '2026-10-01', to: '2026-12-31' }, 'week', 0)).toEqual({
      from: '2026-11-18',
      to: '2026-11-22',
    });
  });

  it('plays ½× to 4×, each period on screen 1.6 s to 0.2 s', () => {
    expect(PLAY_SPEEDS.map(playInterval)).toEqual([1600, 800, 400, 200]);
    expect(PLAY_SPEEDS.map(speedText)).toEqual(['½×', '1×', '2×', '4×']);
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

describe('the legend while playback is open', () => {
  // Three incidents of a period around the Loop and one far away, at zoom 12 (scale 256·2^12).
  const scale = 256 * 2 ** 12;
  const centre = toPixel(41.88, -87.63, { scale, origin: { x: 0, y: 0 } });
  const view = { scale, origin: { x: centre[0] - 400, y: centre[1] - 300 }, size: { x: 800, y: 600 } };
  const period = {
    types: ['Theft', 'Robbery', 'Assault'],
    lat: Float32Array.from([41.88, 41.885, 41.875, 42.2, 41.88]),
    lon: Float32Array.from([-87.63, -87.62, -87.64, -87.9, -87.63]),
    typeIndex: Uint8Array.from([0, 0, 1, 1, 2]),
  };

  it('counts the period’s incidents in the view per type, not every incident nor those outside', () => {
    // Rows 0–3 are the period (row 4 is the next period's).
    expect(periodInView(period, 0, 4, view)).toEqual({ Theft: 2, Robbery: 1 });
    expect(periodInView(period, 2, 5, view)).toEqual({ Robbery: 1, Assault: 1 });
    expect(periodInView(period, 3, 3, view)).toEqual({});
  });

  it('shows those counts in the legend’s In view column, saying they are the period’s', () => {
    const entries = period.types.map((type, i) => ({
      type,
      colour: ['#111', '#222', '#333'][i]!,
      count: 10,
      known: true,
    }));
    const html = renderToStaticMarkup(
      <Legend
        entries={entries}
        inView={periodInView(period, 0, 4, view)}
        inViewOf="period"
        shown={() => true}
        onToggle={() => undefined}
        total={30}
      />,
    );
    const cell = (type: string) => new RegExp(`data-in-view="${type}">([^<]*)<`).exec(html)?.[1];
    expect([cell('Theft'), cell('Robbery'), cell('Assault')]).toEqual(['2', '1', '0']);
    expect(html).toContain('data-in-view-of="period"');
    expect(html).toContain('playback period');
  });
});

describe('the legend’s counts while playback is open', () => {
  it('are the frame’s: each type’s incidents of the period shown, 0 for a type it lacks', () => {
    const frame = { types: ['Theft', 'Robbery', 'Assault'], typeIndex: Uint8Array.from([0, 0, 1, 1, 2]) };
    const byType = periodByType(frame, 0, 4);
    expect(byType).toEqual({ Theft: 2, Robbery: 2 });
    const entries = ['Theft', 'Robbery', 'Assault'].map((type) => ({
      type,
      colour: '#000',
      count: 99,
      known: true,
    }));
    expect(frameEntries(entries, byType).map((e) => e.count)).toEqual([2, 2, 0]);
    const html = renderToStaticMarkup(
      <Legend
        entries={frameEntries(entries, byType)}
        inView={null}
        shown={() => true}
        onToggle={() => undefined}
        total={4}
      />,
    );
    expect(html).toContain('4 incidents');
    expect(/data-type="Assault">([^<]*)</.exec(html)?.[1]).toBe('0');
  });
});
