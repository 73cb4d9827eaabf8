import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Filters } from '../../../src-shared/filters';
import { ListInput, type IncidentRow } from '../../../src-shared/incidentQueries';
import { milesBetween } from '../../../src-shared/geo';
import { incidentCalls } from './calls';
import { addressSortKey } from './sortOrders';
import { closeFixture, openFixture, type Fixture } from './testFixtures';

const CHICAGO = { lat: 41.8781, lon: -87.6298 };

describe('listIncidents', () => {
  let f: Fixture;
  beforeAll(() => {
    f = openFixture();
  });
  afterAll(() => closeFixture(f));

  /** Every row of the filter in the given order, read page by page. */
  async function allRows(filters: Filters, sort: ListInput['sort'], limit = 500): Promise<IncidentRow[]> {
    const rows: IncidentRow[] = [];
    for (let offset = 0; ; offset += limit) {
      const page = await incidentCalls.listIncidents(
        f.service,
        ListInput.parse({ filters, sort, offset, limit }),
      );
      rows.push(...page.rows);
      if (page.rows.length < limit) {
        expect(rows).toHaveLength(page.total);
        return rows;
      }
    }
  }

  it('sorts by date both ways, like ORDER BY occurred_utc', async () => {
    const filters: Filters = { area: { areaId: f.seed.areaIds[0] as number } };
    const asc = await allRows(filters, { by: 'date', dir: 'asc' }, 137);
    const times = asc.map((r) => r.occurredUtc);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const desc = await allRows(filters, { by: 'date', dir: 'desc' });
    expect(desc.map((r) => r.cdid)).toEqual(asc.map((r) => r.cdid).reverse());
    const sql = f.db
      .prepare(
        `SELECT cdid FROM incidents WHERE removed_at IS NULL
           AND miles((SELECT center_lat FROM areas WHERE id = ?), (SELECT center_lon FROM areas WHERE id = ?), lat, lon) <= 8
         ORDER BY occurred_utc, cdid`,
      )
      .pluck()
      .all(f.seed.areaIds[0], f.seed.areaIds[0]);
    expect(asc.map((r) => r.cdid)).toEqual(sql);
  });

  it('groups by type (alphabetical either way), newest first inside each type', async () => {
    for (const dir of ['asc', 'desc'] as const) {
      const rows = await allRows({ preset: '90d' }, { by: 'type', dir });
      const types = rows.map((r) => r.type);
      const sorted = [...types].sort();
      expect(types).toEqual(dir === 'asc' ? sorted : sorted.reverse());
      for (let i = 1; i < rows.length; i++) {
        const [a, b] = [rows[i - 1] as IncidentRow, rows[i] as IncidentRow];
        if (a.type === b.type) expect(a.occurredUtc).toBeGreaterThanOrEqual(b.occurredUtc);
      }
    }
  });

  it('sorts addresses by their house number as a number, then the rest', async () => {
    expect(addressSortKey('900 BLOCK OF N MAIN ST') < addressSortKey('1200 BLOCK OF N MAIN ST')).toBe(true);
    expect(addressSortKey('main st') < addressSortKey('OAK ST')).toBe(true);
    const rows = await allRows({ preset: '30d' }, { by: 'address', dir: 'asc' });
    const keys = rows.map((r) => addressSortKey(r.address));
    expect(keys).toEqual([...keys].sort());
    const desc = await allRows({ preset: '30d' }, { by: 'address', dir: 'desc' });
    expect(desc.map((r) => addressSortKey(r.address))).toEqual([...keys].reverse());
  });

  it('sorts by great-circle distance from the area centre or a given point', async () => {
    const circle = { circle: { ...CHICAGO, radiusMi: 4 } };
    const near = await allRows({ area: circle }, { by: 'distance', dir: 'asc' });
    expect(near.length).toBeGreaterThan(50);
    const miles = near.map((r) => milesBetween(CHICAGO.lat, CHICAGO.lon, r.lat, r.lon));
    for (let i = 1; i < miles.length; i++)
      expect(miles[i]).toBeGreaterThanOrEqual((miles[i - 1] as number) - 1e-3);
    for (const [i, r] of near.entries()) expect(r.distanceMi).toBeCloseTo(miles[i] as number, 3);
    expect(miles.at(-1)).toBeLessThanOrEqual(4);
    const far = await allRows({ area: circle }, { by: 'distance', dir: 'desc' });
    expect(far.map((r) => r.cdid)).toEqual(near.map((r) => r.cdid).reverse());

    const point = { lat: 40.75, lon: -73.99 };
    const page = await incidentCalls.listIncidents(
      f.service,
      ListInput.parse({ filters: {}, sort: { by: 'distance', dir: 'asc', center: point }, limit: 20 }),
    );
    expect(page.center).toEqual(point);
    const d = page.rows.map((r) => r.distanceMi as number);
    expect(d).toEqual([...d].sort((a, b) => a - b));
    expect(d[0]).toBeLessThan(5); // New York incidents come first
  });

  it('refuses a distance sort with nothing to measure from', async () => {
    await expect(
      incidentCalls.listIncidents(f.service, ListInput.parse({ sort: { by: 'distance', dir: 'asc' } })),
    ).rejects.toMatchObject({ code: 'bad_input' });
  });

  it('pages: slices of one order, an empty page past the end, distances only with a centre', async () => {
    const all = await allRows({ types: ['Robbery'] }, { by: 'date', dir: 'desc' }, 500);
    const page = await incidentCalls.listIncidents(
      f.service,
      ListInput.parse({
        filters: { types: ['Robbery'] },
        sort: { by: 'date', dir: 'desc' },
        offset: 10,
        limit: 5,
      }),
    );
    expect(page.rows.map((r) => r.cdid)).toEqual(all.slice(10, 15).map((r) => r.cdid));
    expect(page).toMatchObject({ total: all.length, offset: 10, center: null });
    expect(page.rows[0]?.distanceMi).toBeNull();
    const past = await incidentCalls.listIncidents(
      f.service,
      ListInput.parse({ filters: { types: ['Robbery'] }, offset: all.length + 10 }),
    );
    expect(past.rows).toEqual([]);
  });

  it('fills rows from the snapshot exactly as the store has them', async () => {
    const page = await incidentCalls.listIncidents(
      f.service,
      ListInput.parse({ filters: { includeRemoved: true }, limit: 200 }),
    );
    for (const row of page.rows) {
      const stored = f.db
        .prepare(
          'SELECT type, address, lat, lon, occurred_local, timezone, occurred_utc, removed_at FROM incidents WHERE cdid = ?',
        )
        .get(row.cdid) as Record<string, unknown>;
      expect(row).toMatchObject({
        type: stored.type,
        address: stored.address,
        lat: stored.lat,
        lon: stored.lon,
        occurredLocal: stored.occurred_local,
        timezone: stored.timezone,
        occurredUtc: stored.occurred_utc,
        removed: stored.removed_at !== null,
      });
    }
  });

  it('answers the incident panel with every field, or not_found', async () => {
    const cdid = f.db
      .prepare('SELECT cdid FROM incidents WHERE description IS NOT NULL LIMIT 1')
      .pluck()
      .get() as number;
    const detail = await incidentCalls.getIncident(f.service, { cdid });
    expect(detail).toMatchObject({ cdid, source: 'api', removedAt: null });
    expect(detail.description).toEqual(expect.any(String));
    expect(detail.descriptionFetchedAt).toEqual(expect.any(Number));
    expect(detail.dateRaw).toMatch(/^\d\d\/\d\d\/\d\d \d\d:\d\d [AP]M$/);
    expect(detail.occurredUtc).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/);
    expect(detail.link).toContain(String(cdid));
    await expect(incidentCalls.getIncident(f.service, { cdid: 1 })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});

describe('getMapPoints', () => {
  let f: Fixture;
  beforeAll(() => {
    f = openFixture({ count: 1500 });
  });
  afterAll(() => closeFixture(f));

  it('packs the filtered incidents into typed columns', async () => {
    const points = await incidentCalls.getMapPoints(f.service, { filters: { preset: '90d' } });
    const count = await incidentCalls.countIncidents(f.service, { filters: { preset: '90d' } });
    expect(points.count).toBe(count.total);
    expect(points.cdid).toBeInstanceOf(Float64Array);
    expect(points.lat).toBeInstanceOf(Float32Array);
    expect(points.lon).toBeInstanceOf(Float32Array);
    expect(points.typeIndex).toBeInstanceOf(Uint8Array);
    expect([points.cdid.length, points.lat.length, points.lon.length, points.typeIndex.length]).toEqual(
      Array(4).fill(count.total),
    );
    const get = f.db.prepare('SELECT type, lat, lon FROM incidents WHERE cdid = ?');
    for (let i = 0; i < points.count; i += 17) {
      const row = get.get(points.cdid[i]) as { type: string; lat: number; lon: number };
      expect(points.types[points.typeIndex[i] as number]).toBe(row.type);
      expect(points.lat[i]).toBe(Math.fround(row.lat));
      expect(points.lon[i]).toBe(Math.fround(row.lon));
    }
  });
});
