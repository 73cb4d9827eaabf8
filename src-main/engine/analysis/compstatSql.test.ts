/**
 * CompStat's numbers against an independent SQL count (issue 27, item 1): a seeded archive with a
 * coverage ledger, CompStat as of days across a year's end and across both DST changes, and for
 * every period, side (the period, the days just before, the same days a year earlier) and row
 * (each group, each type, the total) the count SQLite gives over the same local days, with the
 * days worked out here by plain calendar arithmetic.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDatabase } from '../../../bench/seed';
import type { CompStatOutput } from '../../../src-shared/analysis';
import { dbFileOf, logFileOf } from '../dataDir';
import { createEngine, type Engine } from '../engine';
import { configureLogging } from '../log';
import { createMemorySecretStore } from '../secrets/memorySecretStore';
import { makeTempDir, type TempDir } from '../testing/tempDir';

let dir: TempDir;
let engine: Engine;
let sql: Database.Database;

beforeAll(() => {
  dir = makeTempDir('blotter-compstat-sql-');
  // 800 days to 10 January 2026, the ledger from 30 days after the first: every period below and
  // its year earlier are held.
  seedDatabase(dbFileOf(dir.path), { count: 12000, seed: 11, endDay: '2026-01-10', days: 800 });
  configureLogging({ file: logFileOf(dir.path), stderr: false });
  engine = createEngine({
    dataDir: dir.path,
    secrets: createMemorySecretStore(),
    host: 'cli',
    version: '9.8.7',
    emit: () => undefined,
  });
  sql = new Database(dbFileOf(dir.path), { readonly: true });
});
afterAll(async () => {
  sql.close();
  await engine.close();
  configureLogging({ file: null, stderr: true });
  dir.remove();
});

/** ISO day arithmetic on the calendar alone. */
const shift = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 864e5).toISOString().slice(0, 10);
const weekday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 = Sunday

type Side = [from: string, to: string] | null;
/** Each period's days, the days it is compared with just before, and a year earlier. */
function expectedSides(asOf: string): { current: Side; prior: Side; yearAgo: Side }[] {
  const monday = shift(asOf, -((weekday(asOf) + 6) % 7));
  const back = (s: [string, string], n: number): [string, string] => [shift(s[0], -n), shift(s[1], -n)];
  const wtd: [string, string] = [monday, asOf];
  const l7: [string, string] = [shift(asOf, -6), asOf];
  const l28: [string, string] = [shift(asOf, -27), asOf];
  const year = Number(asOf.slice(0, 4));
  return [
    { current: wtd, prior: back(wtd, 7), yearAgo: back(wtd, 364) },
    { current: l7, prior: back(l7, 7), yearAgo: back(l7, 364) },
    { current: l28, prior: back(l28, 28), yearAgo: back(l28, 364) },
    {
      current: [`${year}-01-01`, asOf],
      prior: null,
      yearAgo: [`${year - 1}-01-01`, `${year - 1}${asOf.slice(4)}`],
    },
  ];
}

const ROWS: Record<string, string[] | null> = {
  Violent: ['Shooting', 'Assault', 'Robbery'],
  Shooting: ['Shooting'],
  Assault: ['Assault'],
  Robbery: ['Robbery'],
  Property: ['Burglary', 'Theft', 'Arson', 'Vandalism'],
  Burglary: ['Burglary'],
  Theft: ['Theft'],
  Arson: ['Arson'],
  Vandalism: ['Vandalism'],
  Arrest: ['Arrest'],
  Other: ['Other'],
  // Not a standard type (the seed's 'Fraud'): a row of its own, counted in the total.
  Fraud: ['Fraud'],
  Total: null,
};

/** Live incidents of Chicago's 8-mile circle (area 1) on the local days [from, to] of the given types. */
function sqlCount(side: [string, string], types: string[] | null): number {
  const typeClause = types ? `AND i.type IN (${types.map(() => '?').join(', ')})` : '';
  const row = sql
    .prepare(
      `SELECT count(*) AS n FROM incidents i JOIN areas a ON a.id = 1
        WHERE i.removed_at IS NULL AND i.local_day BETWEEN ? AND ? ${typeClause}
          AND 2 * 3958.8 * asin(min(1, sqrt(
                power(sin(radians(i.lat - a.center_lat) / 2), 2) +
                cos(radians(a.center_lat)) * cos(radians(i.lat)) * power(sin(radians(i.lon - a.center_lon) / 2), 2)
              ))) <= a.radius_mi`,
    )
    .get(side[0], side[1], ...(types ?? [])) as { n: number };
  return row.n;
}

async function compStat(asOf: string): Promise<CompStatOutput> {
  const r = await engine.dispatch('analyzeCompStat', { filters: { area: { areaId: 1 } }, asOf });
  if (!r.ok) throw new Error(r.error.message);
  return r.value as CompStatOutput;
}

describe('CompStat against SQL', () => {
  // 2026-01-04: a Sunday whose week began in 2025 (the year to date is 4 days, its week 7).
  // 2025-11-05: the week after Chicago's clocks went back (2 November); 2025-03-12: after they went on (9 March).
  it.each(['2026-01-04', '2025-11-05', '2025-03-12'])(
    'as of %s, every period, comparison and row equals the SQL count over the same local days',
    async (asOf) => {
      const out = await compStat(asOf);
      expect(out.areas).toHaveLength(1);
      const [area] = out.areas;
      expect(area!.zone).toBe('America/Chicago');
      expect(area!.rows.map((r) => r.label)).toEqual(Object.keys(ROWS));
      const sides = expectedSides(asOf);
      area!.periods.forEach((p, k) => {
        const want = sides[k]!;
        expect([p.current.from, p.current.to]).toEqual(want.current);
        expect(p.prior ? [p.prior.from, p.prior.to] : null).toEqual(want.prior);
        expect([p.yearAgo.from, p.yearAgo.to]).toEqual(want.yearAgo);
        // The archive holds every side here, so every comparison is made — but the seed's 5-day gap
        // (one tile missing, 2025-06-24 to 06-28) lies in 2025's year to date: short, not compared.
        const short = asOf.startsWith('2025-11') && p.key === 'year_to_date';
        expect(p.current.coverage).toBe(short ? 'partial' : 'full');
        expect(p.prior?.compared ?? null).toBe(want.prior ? true : null);
        expect(p.yearAgo.compared).toBe(!short);
      });
      expect(area!.notes).toEqual(
        asOf.startsWith('2025-11')
          ? [
              'Counts are short where the archive lacks days, and not compared: year to date (304 of 309 days held).',
            ]
          : [],
      );
      let checked = 0;
      for (const row of area!.rows) {
        const types = ROWS[row.label]!;
        row.cells.forEach((cell, k) => {
          const want = sides[k]!;
          const current = sqlCount(want.current as [string, string], types);
          expect(cell.current, `${row.label} ${area!.periods[k]!.label}`).toBe(current);
          if (want.prior)
            expect(cell.prior?.base, `${row.label} ${k} before`).toBe(sqlCount(want.prior, types));
          else expect(cell.prior).toBeNull();
          const year = area!.periods[k]!.yearAgo.compared;
          const base = sqlCount(want.yearAgo as [string, string], types);
          expect(cell.yearAgo, `${row.label} ${k} year`).toEqual(
            year ? { base, change: current - base, percent: base >= 10 ? expect.any(Number) : null } : null,
          );
          checked += current;
        });
      }
      expect(checked).toBeGreaterThan(0);
      // The total is the sum of its groups and own rows.
      const total = area!.rows.find((r) => r.label === 'Total')!.cells[2]!.current;
      const parts = ['Violent', 'Property', 'Arrest', 'Other', 'Fraud'].map(
        (l) => area!.rows.find((r) => r.label === l)!.cells[2]!.current,
      );
      expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
      expect(total).toBeGreaterThan(30);
    },
  );

  it('leaves out the year-earlier comparison where the archive does not hold those days, and says so', async () => {
    // As of 2024-12-31 only the year to date's year earlier (2023 from 1 January) begins before
    // the ledger (from 2023-12-02): one note, no cell.
    const out = await compStat('2024-12-31');
    const [area] = out.areas;
    const ytd = area!.periods[3]!;
    expect(ytd.yearAgo.compared).toBe(false);
    expect(area!.rows.every((r) => r.cells[3]!.yearAgo === null)).toBe(true);
    expect(area!.periods.slice(0, 3).every((p) => p.yearAgo.compared)).toBe(true);
    expect(area!.notes).toEqual([
      'No comparison with a year earlier for year to date: the archive does not hold all of those days (from 2023-01-01).',
    ]);
  });
});
