import { describe, expect, it } from 'vitest';
import { dayNumber } from '../../../src-shared/filters';
import type { Resolved } from '../query/service';
import { playbackPoints } from './playback';

/** A snapshot of five incidents (only the columns playback reads) and a filter's rows of it. */
function resolvedOf(rows: number[]): Pick<Resolved, 'snapshot' | 'set'> {
  const day = Int32Array.from(
    ['2026-11-20', '2026-11-18', '2026-11-20', '2026-11-23', '2026-11-18'].map(dayNumber),
  );
  const snapshot = {
    day,
    lat: Float64Array.from([1, 2, 3, 4, 5]),
    lon: Float64Array.from([-1, -2, -3, -4, -5]),
    type: Uint16Array.from([0, 1, 0, 2, 1]),
    types: { size: 3, values: ['Theft', 'Arson', 'Assault'] },
  };
  return {
    snapshot: snapshot as unknown as Resolved['snapshot'],
    set: { count: rows.length, rows: Uint32Array.from(rows) } as unknown as Resolved['set'],
  };
}

describe('playback points', () => {
  it('sorts the filter’s incidents by local day with an offset per day, types as the map indexes them', () => {
    const p = playbackPoints(resolvedOf([0, 1, 2, 3, 4]));
    expect(p.firstDay).toBe('2026-11-18');
    // 18th: 2, 19th: 0, 20th: 2, 21st–22nd: 0, 23rd: 1.
    expect([...p.offsets]).toEqual([0, 2, 2, 4, 4, 4, 5]);
    expect([...p.lat]).toEqual([2, 5, 1, 3, 4]);
    expect(p.types).toEqual(['Theft', 'Arson', 'Assault']);
    expect([...p.typeIndex]).toEqual([1, 1, 0, 0, 2]);
  });

  it('reads only the filter’s rows, and is empty without any', () => {
    const p = playbackPoints(resolvedOf([3, 0]));
    expect(p).toMatchObject({ count: 2, firstDay: '2026-11-20', types: ['Assault', 'Theft'] });
    expect([...p.offsets]).toEqual([0, 1, 1, 1, 2]);
    expect(playbackPoints(resolvedOf([]))).toMatchObject({ count: 0, firstDay: null });
  });

  it('carries the filter’s dates, so the periods stay inside them', () => {
    const p = playbackPoints({ ...resolvedOf([0, 1]), range: { from: '2026-11-16', to: '2026-11-22' } });
    expect(p).toMatchObject({ from: '2026-11-16', to: '2026-11-22' });
    expect(playbackPoints(resolvedOf([0]))).toMatchObject({ from: null, to: null });
  });
});
