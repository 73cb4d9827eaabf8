import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayNumber, weekdayOf } from '../../../src-shared/filters';
import { incidentCalls } from './calls';
import { comparisonSpans } from './compare';
import { repeatPlaces, repeatPlacesInSteps } from './repeatPlaces';
import { closeFixture, openFixture, referenceCounts, type Fixture } from './testFixtures';

describe('history', () => {
  let f: Fixture;
  beforeAll(() => {
    f = openFixture(); // 500 days to 2025-03-14; ledger from 2023-12-01, gap 2024-08-26..30, last 2 days provisional
  });
  afterAll(() => closeFixture(f));

  describe('historySeries', () => {
    it('counts by day, split by type, like GROUP BY local_day, with empty days as zeros', async () => {
      const series = await incidentCalls.historySeries(f.service, {
        filters: { types: ['Theft', 'Fraud'] },
        interval: 'day',
      });
      expect(series.range).toEqual({ from: f.seed.firstDay, to: '2025-03-14' });
      expect(series.buckets).toHaveLength(500);
      const sql = new Map(
        (
          f.db
            .prepare(
              `SELECT local_day AS day, count(*) AS n FROM incidents
                WHERE removed_at IS NULL AND type IN ('Theft', 'Fraud') GROUP BY local_day`,
            )
            .all() as { day: string; n: number }[]
        ).map((r) => [r.day, r.n]),
      );
      const theft = series.types.indexOf('Theft');
      for (const b of series.buckets) {
        expect(b.start).toBe(b.end);
        expect(b.total).toBe(sql.get(b.start) ?? 0);
        expect(b.counts.reduce((x, y) => x + y, 0)).toBe(b.total);
        expect(b.counts.every((c, i) => c === 0 || i === theft || series.types[i] === 'Fraud')).toBe(true);
        expect(b.partial).toBe(false);
      }
    });

    it('weeks start on Monday and months on the 1st; buckets reaching outside the range are partial', async () => {
      const filters = { from: '2024-03-13', to: '2024-05-02' };
      const weeks = await incidentCalls.historySeries(f.service, { filters, interval: 'week' });
      expect(weeks.buckets[0]).toMatchObject({ start: '2024-03-11', end: '2024-03-17', partial: true });
      expect(weeks.buckets.at(-1)).toMatchObject({ start: '2024-04-29', end: '2024-05-05', partial: true });
      expect(weeks.buckets.slice(1, -1).every((b) => !b.partial && weekdayOf(dayNumber(b.start)) === 1)).toBe(
        true,
      );
      const months = await incidentCalls.historySeries(f.service, { filters, interval: 'month' });
      expect(months.buckets.map((b) => [b.start, b.end, b.partial])).toEqual([
        ['2024-03-01', '2024-03-31', true],
        ['2024-04-01', '2024-04-30', false],
        ['2024-05-01', '2024-05-31', true],
      ]);
      const total = referenceCounts(
        f.db,
        "removed_at IS NULL AND local_day BETWEEN '2024-03-13' AND '2024-05-02'",
      ).total;
      for (const s of [weeks, months]) expect(s.buckets.reduce((x, b) => x + b.total, 0)).toBe(total);
    });
  });

  describe('comparePeriods', () => {
    it('compares with the previous period and the same dates a year earlier (29 February → 28th)', () => {
      const spans = comparisonSpans('2024-02-01', '2024-02-29');
      const day = (d: number) => new Date(d * 86_400_000).toISOString().slice(0, 10);
      expect([spans.previous, spans.yearAgo].map((s) => [day(s.from), day(s.to)])).toEqual([
        ['2024-01-03', '2024-01-31'],
        ['2023-02-01', '2023-02-28'],
      ]);
    });

    it('counts each period like SQL and gives absolute and percent changes', async () => {
      const r = await incidentCalls.comparePeriods(f.service, {
        filters: { types: ['Assault', 'Robbery'] },
        from: '2025-01-01',
        to: '2025-01-31',
      });
      const count = (from: string, to: string) =>
        referenceCounts(
          f.db,
          "removed_at IS NULL AND type IN ('Assault', 'Robbery') AND local_day BETWEEN ? AND ?",
          [from, to],
        );
      expect(r.current).toMatchObject({
        from: '2025-01-01',
        to: '2025-01-31',
        days: 31,
        total: count('2025-01-01', '2025-01-31').total,
      });
      expect(r.previous).toMatchObject({
        from: '2024-12-01',
        to: '2024-12-31',
        total: count('2024-12-01', '2024-12-31').total,
      });
      expect(r.yearAgo).toMatchObject({
        from: '2024-01-01',
        to: '2024-01-31',
        total: count('2024-01-01', '2024-01-31').total,
      });
      expect(r.current.byType.Robbery).toBe(count('2025-01-01', '2025-01-31').byType.Robbery);
      expect(r.vsPrevious.absolute).toBe(r.current.total - r.previous.total);
      expect(r.vsPrevious.percent).toBeCloseTo(
        (100 * (r.current.total - r.previous.total)) / r.previous.total,
        1,
      );
      expect(r.vsPrevious).toMatchObject({ comparable: true, note: null });
      expect(r.vsYearAgo).toMatchObject({ comparable: true, note: null });
      expect(r.current.coverage).toMatchObject({
        status: 'full',
        days: 31,
        completeDays: 31,
        basis: 'ledger',
      });
    });

    it('ignores the filter’s own dates: the periods bring theirs', async () => {
      const a = await incidentCalls.comparePeriods(f.service, {
        filters: { preset: '7d' },
        from: '2025-01-01',
        to: '2025-01-31',
      });
      const b = await incidentCalls.comparePeriods(f.service, {
        filters: {},
        from: '2025-01-01',
        to: '2025-01-31',
      });
      expect(a).toEqual(b);
    });

    it('says plainly when the archive does not fully hold a period', async () => {
      const recent = await incidentCalls.comparePeriods(f.service, {
        filters: {},
        from: '2025-02-13',
        to: '2025-03-14',
      });
      expect(recent.current.coverage).toMatchObject({
        status: 'provisional',
        provisionalDays: 2,
        missingDays: 0,
      });
      expect(recent.vsPrevious.comparable).toBe(true);
      expect(recent.vsPrevious.note).toMatch(/last 2 days are still being reported/);

      const gap = await incidentCalls.comparePeriods(f.service, {
        filters: {},
        from: '2024-08-20',
        to: '2024-09-05',
      });
      expect(gap.current.coverage).toMatchObject({ status: 'partial', missingDays: 5, completeDays: 12 });
      expect(gap.vsPrevious.comparable).toBe(false);
      expect(gap.vsPrevious.note).toMatch(/fully holds only 12 of the 17 days of this period/);

      const early = await incidentCalls.comparePeriods(f.service, {
        filters: {},
        from: '2024-11-01',
        to: '2024-11-30',
      });
      expect(early.yearAgo.coverage).toMatchObject({ status: 'none', missingDays: 30 });
      expect(early.yearAgo.total).toBeGreaterThan(0); // incidents held, but no ledger says the days are complete
      expect(early.vsYearAgo.comparable).toBe(false);
      expect(early.vsYearAgo.note).toMatch(/holds none of the same period a year earlier/);
      expect(early.vsPrevious.comparable).toBe(true);
    });

    it('gives no percentage against an empty base period', async () => {
      const r = await incidentCalls.comparePeriods(f.service, {
        filters: { types: ['Nope'] },
        from: '2025-01-01',
        to: '2025-01-31',
      });
      expect(r.vsPrevious).toMatchObject({ absolute: 0, percent: null, comparable: true });
      expect(r.vsPrevious.note).toMatch(/no percentage/);
    });
  });

  it('hourWeekdayGrid counts local hour × weekday like GROUP BY', async () => {
    const grid = await incidentCalls.hourWeekdayGrid(f.service, { filters: { preset: '90d' } });
    const rows = f.db
      .prepare(
        `SELECT local_weekday AS w, local_hour AS h, count(*) AS n FROM incidents
          WHERE removed_at IS NULL AND local_day >= '2024-12-15' GROUP BY w, h`,
      )
      .all() as { w: number; h: number; n: number }[];
    const want = Array.from({ length: 7 }, () => Array<number>(24).fill(0));
    for (const r of rows) (want[r.w] as number[])[r.h] = r.n;
    expect(grid.counts).toEqual(want);
    expect(grid.total).toBe(rows.reduce((x, r) => x + r.n, 0));
    expect(grid.max).toBe(Math.max(...rows.map((r) => r.n)));
  });

  it('topLocations ranks addresses by count like GROUP BY address', async () => {
    const top = await incidentCalls.topLocations(f.service, { filters: { types: ['Theft'] }, limit: 8 });
    const sql = f.db
      .prepare(
        `SELECT address, count(*) AS n, avg(lat) AS lat, avg(lon) AS lon, max(occurred_utc) AS last FROM incidents
          WHERE removed_at IS NULL AND type = 'Theft' GROUP BY address ORDER BY n DESC LIMIT 8`,
      )
      .all() as { address: string; n: number; lat: number; lon: number; last: number }[];
    expect(top.locations.map((l) => l.count)).toEqual(sql.map((r) => r.n));
    for (const loc of top.locations) {
      const r = sql.find((x) => x.address === loc.address);
      if (!r) continue; // a tie at the cut may pick another address with the same count
      expect(loc).toMatchObject({ topType: 'Theft', lastUtc: r.last });
      expect(loc.lat).toBeCloseTo(r.lat, 9);
      expect(loc.lon).toBeCloseTo(r.lon, 9);
    }
  });

  it('repeat places in steps (issue 31: the analysis yields between them) are the places of one pass', async () => {
    const { snapshot, set } = await f.service.resolve({});
    const steps = repeatPlacesInSteps(snapshot, set.rows, 50, true);
    let pauses = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) pauses++;
    expect(step.value).toEqual(repeatPlaces(snapshot, set.rows, 50, true));
    expect(step.value.places).toHaveLength(50);
    expect(pauses).toBeGreaterThanOrEqual(3); // at least one per pass
  });

  it('summarises the archive', async () => {
    const s = await incidentCalls.getArchiveSummary(f.service);
    expect(s.total).toBe(referenceCounts(f.db, 'removed_at IS NULL').total);
    expect(s.removed).toBe(referenceCounts(f.db, 'removed_at IS NOT NULL').total);
    expect(s).toMatchObject({ firstDay: f.seed.firstDay, lastDay: '2025-03-14' });
    expect(s.types.map((t) => t.type)).toContain('Fraud');
  });
});
