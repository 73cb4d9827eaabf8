import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveDateRange, type Filters } from '../../../src-shared/filters';
import { prng } from '../../../bench/lib/seedData';
import { incidentCalls } from './calls';
import { toFtsQuery } from './fts';
import { closeFixture, nonZero, openFixture, referenceCounts, type Fixture } from './testFixtures';

/** The straightforward SQL for a filter: the reference the snapshot's counts must equal. */
function referenceWhere(f: Fixture, filters: Filters): { where: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (!filters.includeRemoved) parts.push('removed_at IS NULL');
  if (filters.types?.length) {
    parts.push(`lower(type) IN (${filters.types.map(() => '?').join(', ')})`);
    params.push(...filters.types.map((t) => t.toLowerCase()));
  }
  const range = resolveDateRange(filters, f.service.today());
  if (range.from) {
    parts.push('local_day >= ?');
    params.push(range.from);
  }
  if (range.to) {
    parts.push('local_day <= ?');
    params.push(range.to);
  }
  if (filters.hours) {
    const [start, end] = filters.hours;
    const keep = Array.from({ length: 24 }, (_, h) => h).filter((h) =>
      start === end % 24 ? true : start < end ? h >= start && h < end : h >= start || h < end,
    );
    parts.push(`local_hour IN (${keep.join(', ') || '-1'})`);
  }
  if (filters.weekdays?.length) parts.push(`local_weekday IN (${filters.weekdays.join(', ')})`);
  if (filters.text) {
    const query = toFtsQuery(filters.text);
    if (query) {
      parts.push('cdid IN (SELECT rowid FROM incidents_fts WHERE incidents_fts MATCH ?)');
      params.push(query);
    }
  }
  const area = filters.area;
  if (area && 'circle' in area) {
    parts.push('miles(?, ?, lat, lon) <= ?');
    params.push(area.circle.lat, area.circle.lon, area.circle.radiusMi);
  } else if (area && 'polygon' in area) {
    parts.push('in_polygon(lat, lon, ?) = 1');
    params.push(JSON.stringify(area.polygon));
  } else if (area) {
    parts.push(
      '(SELECT miles(a.center_lat, a.center_lon, lat, lon) <= a.radius_mi FROM areas a WHERE a.id = ?)',
    );
    params.push(area.areaId);
  }
  return { where: parts.join(' AND ') || '1', params };
}

async function expectSameCounts(f: Fixture, filters: Filters): Promise<number> {
  const got = await incidentCalls.countIncidents(f.service, { filters });
  const { where, params } = referenceWhere(f, filters);
  const want = referenceCounts(f.db, where, params);
  expect({ filters, total: got.total, byType: nonZero(got.byType) }).toEqual({ filters, ...want });
  return got.total;
}

const CHICAGO = { lat: 41.8781, lon: -87.6298 };
const POLYGON: [number, number][] = [
  [41.85, -87.69],
  [41.93, -87.68],
  [41.92, -87.6],
  [41.86, -87.58],
];

describe('filters against a SQL reference', () => {
  let f: Fixture;
  beforeAll(() => {
    f = openFixture();
  });
  afterAll(() => closeFixture(f));

  it('counts everything but removed incidents, or everything with includeRemoved', async () => {
    const all = await expectSameCounts(f, {});
    const withRemoved = await expectSameCounts(f, { includeRemoved: true });
    expect(withRemoved).toBeGreaterThan(all);
    expect(all).toBeGreaterThan(3000);
  });

  it('filters by type, including types outside the standard list and unknown ones', async () => {
    await expectSameCounts(f, { types: ['Theft'] });
    await expectSameCounts(f, { types: ['Fraud', 'Arson'] });
    // Type names match case-insensitively: THEFT, theft and Theft are one type.
    const theft = await expectSameCounts(f, { types: ['Theft'] });
    expect(theft).toBeGreaterThan(0);
    expect(await expectSameCounts(f, { types: ['THEFT'] })).toBe(theft);
    expect(await expectSameCounts(f, { types: ['theft', 'tHeFt'] })).toBe(theft);
    expect(await expectSameCounts(f, { types: ['No such type'] })).toBe(0);
    const none = await incidentCalls.countIncidents(f.service, { filters: { types: ['No such type'] } });
    expect(none.byType).toMatchObject({ Shooting: 0, Fraud: 0 });
  });

  it('resolves presets against the engine clock and honours explicit ranges', async () => {
    for (const preset of ['7d', '30d', '90d', 'all'] as const) await expectSameCounts(f, { preset });
    const week = await incidentCalls.countIncidents(f.service, { filters: { preset: '7d' } });
    expect(week.range).toEqual({ from: '2025-03-08', to: '2025-03-14' });
    await expectSameCounts(f, { from: '2024-07-01', to: '2024-07-31' });
    await expectSameCounts(f, { from: '2025-01-01' });
    await expectSameCounts(f, { to: '2024-01-01' });
    await expectSameCounts(f, { preset: '30d', from: '2020-01-01', to: '2020-01-02' }); // the preset wins
  });

  it('keeps hours of the day, wrapping past midnight', async () => {
    const night = await expectSameCounts(f, { hours: [22, 6] });
    const day = await expectSameCounts(f, { hours: [6, 22] });
    const all = await expectSameCounts(f, {});
    expect(night + day).toBe(all);
    expect(await expectSameCounts(f, { hours: [5, 5] })).toBe(all);
    expect(await expectSameCounts(f, { hours: [0, 24] })).toBe(all);
    await expectSameCounts(f, { hours: [23, 24] });
    await expectSameCounts(f, { hours: [23, 1] });
  });

  it('keeps weekdays', async () => {
    const weekend = await expectSameCounts(f, { weekdays: [0, 6] });
    const week = await expectSameCounts(f, { weekdays: [1, 2, 3, 4, 5] });
    expect(weekend + week).toBe(await expectSameCounts(f, { weekdays: [] }));
  });

  it('matches free text over address and description', async () => {
    expect(await expectSameCounts(f, { text: 'washington' })).toBeGreaterThan(0);
    expect(await expectSameCounts(f, { text: 'wash' })).toBeGreaterThan(0); // prefix
    expect(await expectSameCounts(f, { text: 'bicycle library' })).toBeGreaterThan(0); // description words
    await expectSameCounts(f, { text: '"block of n" oak' });
    expect(await expectSameCounts(f, { text: 'zzzzqqq' })).toBe(0);
  });

  it('never lets filter text break out of the full-text query', async () => {
    const all = await expectSameCounts(f, {});
    for (const text of [
      '"',
      '""',
      '*',
      'OR',
      'main OR',
      'AND NOT',
      'NEAR(',
      'NEAR(main oak, 2)',
      '<img src=x onerror=alert(1)>',
      "'; DROP TABLE incidents; --",
      'address:main',
      '^main',
      'main*',
      '(main',
      '{address} : main',
      '\\',
      '\u0000',
      'É',
    ]) {
      await expectSameCounts(f, { text });
    }
    // Input with no words at all is no text filter.
    for (const text of ['"', '*', '()', '  ', '-+*:^']) {
      expect((await incidentCalls.countIncidents(f.service, { filters: { text } })).total).toBe(all);
    }
  });

  it('keeps drawn circles and polygons (great-circle miles) and saved areas', async () => {
    expect(await expectSameCounts(f, { area: { circle: { ...CHICAGO, radiusMi: 2 } } })).toBeGreaterThan(0);
    await expectSameCounts(f, { area: { circle: { ...CHICAGO, radiusMi: 0.3 } } });
    await expectSameCounts(f, { area: { circle: { lat: 40.7128, lon: -74.006, radiusMi: 50 } } });
    expect(await expectSameCounts(f, { area: { polygon: POLYGON } })).toBeGreaterThan(0);
    expect(await expectSameCounts(f, { area: { areaId: f.seed.areaIds[1] as number } })).toBeGreaterThan(0);
    await expect(
      incidentCalls.countIncidents(f.service, { filters: { area: { areaId: 999 } } }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('agrees with SQL on random combinations of every dimension', async () => {
    const rand = prng(2024);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
    const subset = <T>(xs: readonly T[]): T[] => xs.filter(() => rand() < 0.4);
    const texts = ['main', 'oak st', 'w', '"block of s"', 'fled', 'park', 'NEAR(x', 'was*'];
    const areas: Filters['area'][] = [
      undefined,
      { circle: { ...CHICAGO, radiusMi: 3 } },
      { polygon: POLYGON },
      { areaId: f.seed.areaIds[0] as number },
    ];
    for (let k = 0; k < 60; k++) {
      const filters: Filters = {};
      if (rand() < 0.5)
        filters.types = subset(['Theft', 'Assault', 'Robbery', 'Burglary', 'Fraud', 'Other', 'Nope']);
      if (rand() < 0.4) filters.preset = pick(['7d', '30d', '90d', 'all'] as const);
      else if (rand() < 0.5) {
        const a = 19_800 + Math.floor(rand() * 400);
        const b = a + Math.floor(rand() * 120);
        filters.from = new Date(a * 86_400_000).toISOString().slice(0, 10);
        filters.to = new Date(b * 86_400_000).toISOString().slice(0, 10);
      }
      if (rand() < 0.4) filters.hours = [Math.floor(rand() * 24), Math.floor(rand() * 25)];
      if (rand() < 0.4) filters.weekdays = subset([0, 1, 2, 3, 4, 5, 6]);
      if (rand() < 0.3) filters.text = pick(texts);
      const area = pick(areas);
      if (area) filters.area = area;
      if (rand() < 0.2) filters.includeRemoved = true;
      await expectSameCounts(f, filters);
    }
  });
});
