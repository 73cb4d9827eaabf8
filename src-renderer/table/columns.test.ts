import { describe, expect, it } from 'vitest';
import {
  allColumns,
  areaNamesAt,
  attributeNamesOf,
  BASE_COLUMNS,
  DEFAULT_COLUMNS,
  shownColumns,
  sourceText,
  toggleColumn,
  weekdayText,
  type TableRow,
} from './columns';
import {
  grownById,
  MAX_COLUMN_PX,
  MIN_COLUMN_PX,
  resizedWidths,
  START_COLUMN_PX,
  widthsFor,
} from './columnWidths';

const ROW: TableRow = {
  cdid: 42,
  type: 'Theft',
  address: '1 BLK MAIN ST',
  lat: 41.88,
  lon: -87.63,
  occurredLocal: '2026-11-28T01:58',
  timezone: 'America/Chicago',
  occurredUtc: Date.UTC(2026, 10, 28, 7, 58),
  removed: false,
  distanceMi: null,
};

describe("the table's columns", () => {
  it('offer id, type, subtype, date and time, weekday, address, area, source and the kept fields', () => {
    const ids = allColumns(['District', 'Beat'], []).map((c) => c.id);
    expect(ids).toEqual([
      'id',
      'date',
      'weekday',
      'type',
      'subtype',
      'address',
      'area',
      'source',
      'distance',
      'flags',
      'attr:Beat',
      'attr:District',
    ]);
    // A kept field chosen before stays offered even before a row with it is loaded.
    expect(allColumns([], ['attr:Ward']).map((c) => c.id)).toContain('attr:Ward');
  });

  it('read each cell from the row', () => {
    const text = (id: string, row: TableRow = ROW) =>
      allColumns(['Beat'], [])
        .find((c) => c.id === id)
        ?.text(row, {
          areas: [{ name: 'Loop', shape: { kind: 'circle', lat: 41.88, lon: -87.63, radiusMi: 1 } }],
        });
    expect(text('id')).toBe('42');
    expect(text('weekday')).toBe(
      new Intl.DateTimeFormat(undefined, { weekday: 'short' }).format(new Date(2026, 10, 28)),
    );
    expect(text('area')).toBe('Loop');
    expect(text('subtype')).toBe('');
    expect(text('subtype', { ...ROW, subtype: 'RETAIL THEFT' })).toBe('RETAIL THEFT');
    expect(text('attr:Beat', { ...ROW, attributes: { Beat: '1824' } })).toBe('1824');
    expect(text('attr:Beat')).toBe('');
    expect(text('flags', { ...ROW, removed: true })).toBe('Removed');
    expect(text('distance', { ...ROW, distanceMi: 1.234 })).toBe('1.23 mi');
  });

  it('name the weekday, the source and the areas holding a point', () => {
    expect(weekdayText('2026-11-30T00:10')).toBe(
      new Intl.DateTimeFormat(undefined, { weekday: 'short' }).format(new Date(2026, 10, 30)),
    );
    expect(weekdayText('garbage')).toBe('');
    expect(sourceText({ source: 'api' })).toBe('API');
    expect(sourceText({ source: 'import', importFile: 'cpd.csv' })).toBe('Import: cpd.csv');
    expect(sourceText({})).toBe('');
    const square = {
      kind: 'polygon' as const,
      points: [
        [0, 0],
        [0, 1],
        [1, 1],
        [1, 0],
      ] as [number, number][],
    };
    const areas = [
      { name: 'A', shape: square },
      { name: 'B', shape: { kind: 'circle' as const, lat: 0.5, lon: 1, radiusMi: 5 } },
    ];
    expect(areaNamesAt(areas, 0.5, 0.99)).toBe('A, B');
    expect(areaNamesAt(areas, 0.5, 0.5)).toBe('A');
    expect(areaNamesAt(areas, 0.5, 1.03)).toBe('B');
    expect(areaNamesAt(areas, 5, 5)).toBe('');
  });

  it('show the chosen ones in the offered order, hide and show one, never hide the last', () => {
    const all = allColumns([], []);
    expect(shownColumns(all, ['address', 'id']).map((c) => c.id)).toEqual(['id', 'address']);
    expect(shownColumns(all, ['gone']).map((c) => c.id)).toEqual([...DEFAULT_COLUMNS]);
    expect(toggleColumn(['date', 'type'], 'type')).toEqual(['date']);
    expect(toggleColumn(['date'], 'id')).toEqual(['date', 'id']);
    expect(toggleColumn(['date'], 'date')).toEqual(['date']);
    expect(DEFAULT_COLUMNS.every((id) => BASE_COLUMNS.some((c) => c.id === id))).toBe(true);
  });

  it('find the kept fields in the rows loaded', () => {
    expect([...attributeNamesOf([ROW, undefined, { ...ROW, attributes: { Beat: '1', Ward: '2' } }])]).toEqual(
      ['Beat', 'Ward'],
    );
  });
});

describe('column widths by id, and the user resizing one', () => {
  it('keep each column its widest text, by id, so hiding one keeps the others', () => {
    const kept = grownById({}, ['date', 'type'], [180.4, 60]);
    expect(kept).toEqual({ date: 185, type: 64 });
    expect(grownById(kept, ['type', 'address'], [50, 300])).toEqual({ date: 185, type: 64, address: 304 });
  });

  it("take the user's width over the measured one, clamped", () => {
    expect(widthsFor(['date', 'type', 'id'], { date: 185, type: 64 }, { type: 120 })).toEqual([
      185,
      120,
      START_COLUMN_PX,
    ]);
    expect(resizedWidths({}, 'type', 5)).toEqual({ type: MIN_COLUMN_PX });
    expect(resizedWidths({ date: 200 }, 'type', 99999)).toEqual({ date: 200, type: MAX_COLUMN_PX });
    expect(resizedWidths({}, 'type', 120.6)).toEqual({ type: 121 });
  });
});
