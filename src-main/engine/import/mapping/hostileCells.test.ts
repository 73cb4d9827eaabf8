/**
 * Cells made to hurt the mapping's readers: a point or date column holding a cell of hundreds of
 * thousands of characters. Each pattern read such a cell in the square of its length (a
 * 16,000-character cell took half a second; these would take minutes, past the test's time limit);
 * now a cell far longer than any point or date is refused at once, saying how long it is.
 */
import { describe, expect, it } from 'vitest';
import { readClock, readDateTime } from './dates';
import { unprojector } from '../../geo/projection';
import { pointText } from './pointText';

const LONG = 200_000;

describe('a hostile cell', () => {
  it('of digits in a point column holds no point, read at once', () => {
    expect(pointText('POINT (' + '1'.repeat(LONG) + 'x')).toBeNull();
    expect(pointText('(' + '1'.repeat(LONG) + 'x')).toBeNull();
    expect(pointText('POINT (1 ' + '2'.repeat(LONG) + 'x')).toBeNull();
    // Real points still read, with spaces around them.
    expect(pointText('  POINT (-87.63 41.88)  ')).toEqual({ x: -87.63, y: 41.88 });
    expect(pointText('(41.88, -87.63)')).toEqual({ x: -87.63, y: 41.88 });
    expect(pointText('POINT (1. 2.)')).toEqual({ x: 1, y: 2 });
  });

  it.each(['2025 May 10', '10-May-2025', 'May 10, 2025', '05/10/2025'])(
    'in a date column (%s then spaces and a line break) is refused naming its length',
    (day) => {
      const cell = day + ' '.repeat(LONG) + '\nx';
      const read = readDateTime(cell, null);
      expect(read).toEqual({
        expected: expect.stringContaining(`not ${cell.length.toLocaleString('en-US')} characters`),
      });
      expect(readDateTime('2025-05-10', '1:00' + ' '.repeat(LONG) + '\nx')).toEqual({
        expected: expect.stringContaining('a time such as 13:30, not'),
      });
      expect(readClock('1:00' + ' '.repeat(LONG) + '\nx')).toBeNull();
    },
  );

  it('date cells padded with spaces still read', () => {
    expect(readDateTime(' '.repeat(500) + '2025 May 10 02:30:00 PM' + ' '.repeat(500), null)).toEqual({
      wall: '2025-05-10T14:30',
      offsetMinutes: null,
    });
  });
});

describe('a hostile coordinate system text (a .prj pasted into a mapping)', () => {
  it.each([
    ['+proj=longlat +datum=NAD27 +nadgrids=@/etc/passwd +no_defs', /names a grid shift file \(nadgrids\)/],
    ['+proj=longlat +ellps=clrk66 +nadgrids=https://example.invalid/conus', /names a grid shift file/],
    [`GEOGCS["g",${'DATUM["d",'.repeat(4000)}${']'.repeat(4000)}]`, /its brackets are nested too deep/],
    ['GEOGCS["g",DATUM["D",SPHEROID["s",6378137,298.25]],AXIS["a",AXIS["b"]]]', /cannot be read \(/],
    ['hello world, not a system', /the coordinate system text cannot be read \(Could not parse/],
  ])('%s is refused saying why (proj4 read every point as null, or threw a bare string)', (wkt, why) => {
    let error: unknown;
    try {
      unprojector({ wkt });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(why);
    expect((error as Error).message.length).toBeLessThan(300);
  });
});
