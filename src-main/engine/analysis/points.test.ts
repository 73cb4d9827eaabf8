import { describe, expect, it } from 'vitest';
import { Snapshot } from '../query/snapshot';
import { centroidZone, MIN_INCIDENTS, pickColumns, requireEnough } from './points';

describe('analysis input', () => {
  it("takes the filter's rows from the snapshot's columns, keeping the rows for a drill-down", () => {
    const s = new Snapshot();
    // packed = (day · 1440 + minute) · 2 + removed
    s.upsert([11, 41.88, -87.63, 0, (19_800 * 1440 + 600) * 2, 'Burglary', 'America/Chicago', '100 MAIN ST']);
    s.upsert([12, 41.9, -87.64, 0, (19_801 * 1440 + 60) * 2, 'Theft', 'America/Chicago', '200 OAK ST']);
    s.upsert([13, 41.91, -87.65, 0, 19_802 * 1440 * 2, 'Burglary', 'America/Chicago', '300 PINE ST']);
    const c = pickColumns(s, Uint32Array.of(2, 0));
    expect(Array.from(c.lat)).toEqual([41.91, 41.88]);
    expect(Array.from(c.day)).toEqual([19_802, 19_800]);
    expect(Array.from(c.type)).toEqual([s.types.id('Burglary'), s.types.id('Burglary')]);
    expect(Array.from(c.rows)).toEqual([2, 0]);
    expect(centroidZone(c.lat, c.lon).epsg).toBe(32616);
  });

  it('refuses below 30 incidents in words', () => {
    expect(MIN_INCIDENTS).toBe(30);
    expect(() => requireEnough(29, 'Hot spot analysis')).toThrow(
      'Hot spot analysis needs at least 30 incidents; the filters match 29. Widen the dates, types or area.',
    );
    expect(() => requireEnough(30, 'Hot spot analysis')).not.toThrow();
  });
});
