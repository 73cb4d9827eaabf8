import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incidentCalls } from './calls';
import { MIN_REPEAT } from './aggregates';
import { closeFixture, openFixture, type Fixture } from './testFixtures';

describe('top repeat locations', () => {
  let f: Fixture;
  beforeAll(() => {
    f = openFixture();
  });
  afterAll(() => closeFixture(f));

  const sqlRepeats = (where: string, params: unknown[] = []) =>
    f.db
      .prepare(
        `SELECT address, count(*) AS n FROM incidents WHERE removed_at IS NULL AND ${where}
          GROUP BY address HAVING n >= ${MIN_REPEAT} ORDER BY n DESC`,
      )
      .all(...params) as { address: string; n: number }[];

  it('lists only addresses with two or more incidents, never a one-incident place', async () => {
    // One day: most addresses have a single incident, a few repeat.
    const day = '2025-02-10';
    const top = await incidentCalls.topLocations(f.service, { filters: { from: day, to: day }, limit: 200 });
    const want = sqlRepeats('local_day = ?', [day]);
    const singles = (
      f.db
        .prepare(
          `SELECT count(*) AS n FROM (SELECT address FROM incidents WHERE removed_at IS NULL AND local_day = ?
            GROUP BY address HAVING count(*) = 1)`,
        )
        .get(day) as { n: number }
    ).n;
    expect(singles).toBeGreaterThan(0); // the day has one-incident places the list must leave out
    expect(top.locations.every((l) => l.count >= 2)).toBe(true);
    expect(top.locations.map((l) => l.count)).toEqual(want.map((r) => r.n));
  });

  it('is empty when no address repeats, and gives the zone of each place’s latest incident', async () => {
    const one = f.db
      .prepare('SELECT cdid, address FROM incidents WHERE removed_at IS NULL ORDER BY cdid LIMIT 1')
      .get() as { cdid: number; address: string };
    const alone = await incidentCalls.topLocations(f.service, {
      filters: { text: String(one.cdid) },
      limit: 20,
    });
    expect(alone.locations.filter((l) => l.count < 2)).toEqual([]);

    const top = await incidentCalls.topLocations(f.service, { filters: {}, limit: 5 });
    expect(top.locations.length).toBeGreaterThan(0);
    for (const loc of top.locations) {
      const latest = f.db
        .prepare(
          'SELECT timezone, occurred_utc FROM incidents WHERE removed_at IS NULL AND address = ? ORDER BY occurred_utc DESC LIMIT 1',
        )
        .get(loc.address) as { timezone: string; occurred_utc: number };
      expect(loc).toMatchObject({ lastUtc: latest.occurred_utc, lastZone: latest.timezone });
    }
  });
});
