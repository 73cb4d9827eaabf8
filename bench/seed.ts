/**
 * Seeds a new Blotter data file (any file at that path is replaced) with synthetic incidents (default 1M) and a coverage ledger, through
 * the app's own openDatabase and migrations. For benchmarks, tests and e2e:
 *
 *   import { seedDatabase } from '../bench/seed';
 *   seedDatabase(file, { count: 5000, seed: 7 });
 *
 *   npx tsx bench/seed.ts --out /tmp/blotter.sqlite --count 1000000 --seed 42
 *
 * Speed: the row triggers (FTS5, one row at a time) and the incidents' own indexes (the spatial
 * one of store/incidents/boxQuery.ts among them) are dropped for the load; the indexes are built
 * again from a sort and the text index rebuilt whole afterwards, and the triggers are put back
 * exactly as the schema had them; everything in one transaction.
 */
import { rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { openDatabase, type Db } from '../src-main/engine/store/database';
import { RECORD_COLUMNS, type IncidentColumn } from '../src-main/engine/store/incidents/incidentRow';
import { tileKey, tileOf } from '../src-main/engine/geo/tiles';
import { dayNumber, dayString } from '../src-shared/filters';
import { circleBox, type Box } from '../src-shared/geo';
import { SEED_CITIES, generateIncidents } from './lib/seedData';

export type SeedOptions = {
  /** Incidents to create (default 1,000,000). */
  count?: number;
  /** PRNG seed (default 42). */
  seed?: number;
  /** Last local day of the data (default: today, local). */
  endDay?: string;
  /** Days of history ending on endDay (default 730). */
  days?: number;
  /** Days at the start of the history the ledger does not cover (e.g. imported; default 30). */
  unledgeredDays?: number;
  /** Trailing days the ledger marks provisional (default 2, as the sync). */
  provisionalDays?: number;
};

export type SeedSummary = {
  file: string;
  count: number;
  firstDay: string;
  endDay: string;
  areaIds: number[];
  /** The days every area's first tile is missing from the ledger. */
  gap: { from: string; to: string };
  ms: number;
};

export const todayLocal = (now = Date.now()): string => {
  const d = new Date(now);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** The stored columns the seed fills (every one but source, which stays 'api'). */
const COLUMNS = [
  ...RECORD_COLUMNS,
  'description',
  'description_fetched_at',
  'first_seen',
  'last_seen',
  'removed_at',
  'removed_reason',
] as const satisfies readonly IncidentColumn[];

export function seedDatabase(file: string, options: SeedOptions = {}): SeedSummary {
  const started = performance.now();
  const count = options.count ?? 1_000_000;
  const endDay = options.endDay ?? todayLocal();
  const days = options.days ?? 730;
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  const db = openDatabase(file);
  try {
    // A fresh file: no journal and no syncs while it is filled (a crash leaves a file we would
    // overwrite anyway), which halves the bytes written; WAL again before it is handed over.
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144'); // 256 MB for the bulk load
    const gen = { count, seed: options.seed ?? 42, endDay, days };
    let summary: Omit<SeedSummary, 'ms' | 'file' | 'count'> | null = null;
    db.transaction(() => {
      withoutIncidentTriggers(db, () => insertIncidents(db, generateIncidents(gen)));
      summary = seedLedger(db, endDay, days, options.unledgeredDays ?? 30, options.provisionalDays ?? 2);
    }).immediate();
    db.pragma('optimize');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    return {
      file,
      count,
      ...(summary as unknown as Omit<SeedSummary, 'ms' | 'file' | 'count'>),
      ms: performance.now() - started,
    };
  } finally {
    db.close();
  }
}

function insertIncidents(db: Db, rows: Iterable<Record<(typeof COLUMNS)[number], unknown>>): void {
  const BATCH = 100; // rows per INSERT: fewer statement round trips (2,000 parameters, under SQLite's limit)
  const sql = (n: number) =>
    `INSERT INTO incidents (${COLUMNS.join(', ')}) VALUES ` +
    Array(n)
      .fill(`(${COLUMNS.map(() => '?').join(', ')})`)
      .join(', ');
  const insertBatch = db.prepare(sql(BATCH));
  const params: unknown[] = [];
  for (const row of rows) {
    for (const c of COLUMNS) params.push(row[c]);
    if (params.length === BATCH * COLUMNS.length) {
      insertBatch.run(params);
      params.length = 0;
    }
  }
  if (params.length) db.prepare(sql(params.length / COLUMNS.length)).run(params);
  db.exec(`INSERT INTO incidents_fts (incidents_fts) VALUES ('rebuild')`);
}

/**
 * Runs `load` with the incidents table's triggers and own indexes (not the primary key) dropped,
 * then builds the indexes again from a sort and restores the triggers, both verbatim.
 */
function withoutIncidentTriggers(db: Db, load: () => void): void {
  const found = (type: 'trigger' | 'index') =>
    db
      .prepare(
        `SELECT name, sql FROM sqlite_master WHERE type = ? AND tbl_name = 'incidents' AND sql IS NOT NULL`,
      )
      .all(type) as { name: string; sql: string }[];
  const triggers = found('trigger');
  const indexes = found('index');
  const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
  for (const t of triggers) db.exec(`DROP TRIGGER ${quoted(t.name)}`);
  for (const i of indexes) db.exec(`DROP INDEX ${quoted(i.name)}`);
  load();
  for (const i of indexes) db.exec(i.sql);
  for (const t of triggers) db.exec(t.sql);
}

/**
 * One circle area per city (8 mi), tiled like the sync tiles it: a 4 × 4 grid of cells over its
 * bounding box, each asked about as the degree circle around the cell (key "lat,lon,radius").
 * The ledger covers [first + unledgered, end]: complete; every 17th day one tile saturated and
 * finished by its four quadrant tiles; the last `provisionalDays` provisional; and a 5-day gap
 * ~200 days ago where one tile is missing.
 */
function seedLedger(db: Db, endDay: string, days: number, unledgered: number, provisionalDays: number) {
  const end = dayNumber(endDay);
  const first = end - days + 1;
  const gapFrom = end - 200;
  const now = Date.now();
  const insertArea = db.prepare(
    `INSERT INTO areas (name, kind, center_lat, center_lon, radius_mi, min_lat, min_lon, max_lat, max_lon, created_at)
     VALUES (?, 'circle', ?, ?, 8, ?, ?, ?, ?, ?)`,
  );
  const insertCoverage = db.prepare(
    `INSERT INTO coverage (area_id, tile, day, status, checked_at) VALUES (?, ?, ?, ?, ?)`,
  );
  const areaIds: number[] = [];
  for (const city of SEED_CITIES) {
    // The box the app stores for an 8-mile circle.
    const box = circleBox(city.lat, city.lon, 8);
    const id = Number(
      insertArea.run(city.name, city.lat, city.lon, box.minLat, box.minLon, box.maxLat, box.maxLon, now)
        .lastInsertRowid,
    );
    areaIds.push(id);
    const cells = gridCells(box, 4);
    const tiles = cells.map(tileKeyOf);
    const children = gridCells(cells[10] as Box, 2).map(tileKeyOf);
    for (let d = first + unledgered; d <= end; d++) {
      const day = dayString(d);
      const provisional = d > end - provisionalDays;
      tiles.forEach((tile, k) => {
        if (k === 5 && d >= gapFrom && d < gapFrom + 5) return;
        const saturated = !provisional && k === 10 && d % 17 === 0;
        insertCoverage.run(
          id,
          tile,
          day,
          provisional ? 'provisional' : saturated ? 'saturated' : 'complete',
          now,
        );
        if (saturated) for (const child of children) insertCoverage.run(id, child, day, 'complete', now);
      });
    }
  }
  return {
    firstDay: dayString(first),
    endDay,
    areaIds,
    gap: { from: dayString(gapFrom), to: dayString(gapFrom + 4) },
  };
}

function gridCells(box: Box, n: number): Box[] {
  const out: Box[] = [];
  const h = (box.maxLat - box.minLat) / n;
  const w = (box.maxLon - box.minLon) / n;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      out.push({
        minLat: box.minLat + i * h,
        maxLat: box.minLat + (i + 1) * h,
        minLon: box.minLon + j * w,
        maxLon: box.minLon + (j + 1) * w,
      });
    }
  }
  return out;
}

/** The sync's tile key of the degree circle around a cell. */
const tileKeyOf = (c: Box): string => tileKey(tileOf(c));

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = argValue('out') ?? 'bench/results/seed.sqlite';
  const summary = seedDatabase(out, {
    count: Number(argValue('count') ?? 1_000_000),
    seed: Number(argValue('seed') ?? 42),
    ...(argValue('end') ? { endDay: argValue('end') } : {}),
    ...(argValue('days') ? { days: Number(argValue('days')) } : {}),
  });
  console.log(
    JSON.stringify({
      bench: 'seed',
      ...summary,
      ms: Math.round(summary.ms),
      boundMs: 60_000,
      ok: summary.ms < 60_000,
    }),
  );
}
