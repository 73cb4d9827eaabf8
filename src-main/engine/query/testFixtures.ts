/**
 * For tests only: a small seeded data file in a temp folder, a query service over it with a fixed
 * clock, and a few SQL reference helpers (registered as SQL functions from the sync's geometry, an
 * implementation independent of the query code under test).
 */
import path from 'node:path';
import { seedDatabase, type SeedSummary } from '../../../bench/seed';
import { insidePolygon, milesBetween } from '../../../src-shared/geo';
import { openDatabase, type Db } from '../store/database';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { QueryService, type QueryServiceOptions } from './service';

export type Fixture = {
  dir: TempDir;
  file: string;
  db: Db;
  seed: SeedSummary;
  now: number;
  service: QueryService;
};

export const FIXTURE_END_DAY = '2025-03-14';

export function openFixture(options: { count?: number; days?: number } & QueryServiceOptions = {}): Fixture {
  const dir = makeTempDir('blotter-query-');
  const file = path.join(dir.path, 'blotter.sqlite');
  const seed = seedDatabase(file, {
    count: options.count ?? 4000,
    seed: 7,
    endDay: FIXTURE_END_DAY,
    days: options.days ?? 500,
  });
  const db = openDatabase(file);
  registerReferenceFunctions(db);
  const now = Date.parse(`${FIXTURE_END_DAY}T15:00:00`);
  const service = new QueryService(db, { now: () => now, cacheFile: null, ...options });
  return { dir, file, db, seed, now, service };
}

export async function closeFixture(f: Fixture): Promise<void> {
  await f.service.close();
  f.db.close();
  f.dir.remove();
}

/** miles(lat1, lon1, lat2, lon2) and in_polygon(lat, lon, json) for reference queries. */
export function registerReferenceFunctions(db: Db): void {
  db.function('miles', { deterministic: true }, (a, b, c, d) =>
    milesBetween(a as number, b as number, c as number, d as number),
  );
  db.function('in_polygon', { deterministic: true }, (lat, lon, ring) =>
    insidePolygon(lat as number, lon as number, JSON.parse(ring as string) as [number, number][]) ? 1 : 0,
  );
}

/** Counts by type of `SELECT … FROM incidents WHERE <where>`. */
export function referenceCounts(
  db: Db,
  where: string,
  params: unknown[] = [],
): { total: number; byType: Record<string, number> } {
  const rows = db
    .prepare(`SELECT type, count(*) AS n FROM incidents WHERE ${where} GROUP BY type`)
    .all(...params) as { type: string; n: number }[];
  const byType: Record<string, number> = {};
  let total = 0;
  for (const r of rows) {
    byType[r.type] = r.n;
    total += r.n;
  }
  return { total, byType };
}

/** Drops zero counts, for comparing a CountResult's byType with referenceCounts. */
export const nonZero = (byType: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(byType).filter(([, n]) => n > 0));
