import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Filters } from '../../../src-shared/filters';
import { incidentCalls } from './calls';
import { closeFixture, openFixture, type Fixture } from './testFixtures';

/** A square ring [lat, lon] around (lat, lon), `d` degrees from its centre to each side. */
const square = (lat: number, lon: number, d: number): [number, number][] => [
  [lat - d, lon - d],
  [lat - d, lon + d],
  [lat + d, lon + d],
  [lat + d, lon - d],
];

describe('the focus filter (an analysis cell opened from Analysis, issue 26 item 5)', () => {
  let f: Fixture;
  beforeAll(() => {
    f = openFixture();
  });
  afterAll(() => closeFixture(f));

  const sqlCount = (ring: [number, number][], extra = '1', params: unknown[] = []) =>
    (
      f.db
        .prepare(
          `SELECT count(*) AS n FROM incidents WHERE removed_at IS NULL AND in_polygon(lat, lon, ?) AND ${extra}`,
        )
        .get(JSON.stringify(ring), ...params) as { n: number }
    ).n;

  it('narrows the area in force: both shapes apply, and the focus never widens it', async () => {
    // The seed's Chicago (its streets spread about 0.06° around the centre).
    const mid = { lat: 41.8781, lon: -87.6298 };
    const area = square(mid.lat, mid.lon, 0.03);
    // The cell straddles the area's east edge: half of it is outside the area.
    const cell = square(mid.lat, mid.lon + 0.03, 0.02);
    const count = async (filters: Filters) =>
      (await incidentCalls.countIncidents(f.service, { filters: { preset: 'all', ...filters } })).total;

    const inArea = await count({ area: { polygon: area } });
    const inCell = await count({ focus: { label: 'Gi* cell 1,2', polygon: cell } });
    const both = await count({ area: { polygon: area }, focus: { label: 'Gi* cell 1,2', polygon: cell } });
    expect(inCell).toBe(sqlCount(cell));
    expect(both).toBe(sqlCount(cell, 'in_polygon(lat, lon, ?)', [JSON.stringify(area)]));
    expect(both).toBeGreaterThan(0);
    expect(both).toBeLessThan(inCell); // the part of the cell outside the area is left out
    expect(both).toBeLessThan(inArea);

    // A place (a circle) narrows the same way, and with the types too.
    const type = (f.db.prepare('SELECT type FROM incidents LIMIT 1').get() as { type: string }).type;
    const circle = { lat: mid.lat, lon: mid.lon, radiusMi: 1 };
    const placeOfType = await count({
      area: { polygon: area },
      types: [type],
      focus: { label: '100 Block of Main St', circle },
    });
    const placeAll = await count({
      area: { polygon: area },
      focus: { label: '100 Block of Main St', circle },
    });
    expect(placeOfType).toBeGreaterThan(0);
    expect(placeOfType).toBeLessThan(placeAll);
    expect(placeAll).toBeLessThanOrEqual(inArea);
  });

  it('narrows to a place’s incidents by id, the other filters still applied', async () => {
    const some = f.db
      .prepare<[], { cdid: number; type: string }>(
        'SELECT cdid, type FROM incidents WHERE removed_at IS NULL ORDER BY cdid LIMIT 9',
      )
      .all();
    const focus = { label: '1200 BLOCK OF W MAIN ST', cdids: some.map((r) => r.cdid) };
    const type = some[0]!.type;
    const count = async (filters: Filters) =>
      (await incidentCalls.countIncidents(f.service, { filters: { preset: 'all', ...filters } })).total;
    expect(await count({ focus })).toBe(some.length);
    expect(await count({ focus, types: [type] })).toBe(some.filter((r) => r.type === type).length);
  });
});
