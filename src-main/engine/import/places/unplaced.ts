/**
 * Unplaced rows and their placing (issue 28): an import's rows without coordinates are kept in
 * `unplaced_incidents` (migration 019); the locator is built from the archive's own block addresses
 * with coordinates (the API's incidents and earlier imports, not rows the locator itself placed)
 * and the reference files added (`place_references`), and each row it places moves into
 * `incidents` with `incident_placements` saying how and how far off. Tried again when a reference
 * file is added and on request (`blotter places retry`).
 */
import { basename } from 'node:path';
import type Database from 'better-sqlite3';
import { normalize } from '../normalize';
import { Locator, type PlaceMethod } from './locator';
import { readReference, type Reference } from './references';

type Db = Database.Database;

/** A row without coordinates, as an import hands it over (its time already in its zone). */
export type UnplacedRow = {
  cdid: number;
  type: string;
  address: string;
  occurredLocal: string;
  timezone: string;
  occurredUtc: number;
  description: string | null;
  externalId: string | null;
  attributes: string | null;
  reason: string;
  row: number;
};

export type UnplacedListed = {
  cdid: number;
  row: number;
  address: string;
  type: string;
  occurredLocal: string;
  reason: string;
};

export type PlaceOutcome = {
  tried: number;
  placed: number;
  byMethod: Partial<Record<PlaceMethod, number>>;
  /** Rows still unplaced after this try. */
  unplaced: number;
};

/** Keeps an import's unplaced rows (a row already held, placed or not, keeps its place). */
export function saveUnplaced(
  db: Db,
  rows: readonly UnplacedRow[],
  origin: { fileName: string; mappingName: string | null },
  now: number,
): number {
  const insert = db.prepare(
    `INSERT INTO unplaced_incidents (cdid, type, address, occurred_local, timezone, occurred_utc, description,
       external_id, attributes, reason, file_name, file_row, mapping_name, imported_at)
     SELECT @cdid, @type, @address, @occurredLocal, @timezone, @occurredUtc, @description, @externalId,
       @attributes, @reason, @fileName, @row, @mappingName, @now
     WHERE NOT EXISTS (SELECT 1 FROM incidents WHERE cdid = @cdid)
     ON CONFLICT (cdid) DO UPDATE SET type = excluded.type, address = excluded.address,
       occurred_local = excluded.occurred_local, timezone = excluded.timezone,
       occurred_utc = excluded.occurred_utc, description = excluded.description,
       attributes = excluded.attributes, reason = excluded.reason, file_name = excluded.file_name,
       file_row = excluded.file_row, imported_at = excluded.imported_at`,
  );
  let kept = 0;
  db.transaction(() => {
    for (const r of rows) kept += insert.run({ ...r, ...origin, now }).changes;
  })();
  return kept;
}

export function countUnplaced(db: Db): number {
  return db.prepare('SELECT count(*) FROM unplaced_incidents').pluck().get() as number;
}

export function listUnplaced(db: Db, limit = 100): UnplacedListed[] {
  return db
    .prepare(
      `SELECT cdid, file_row AS row, address, type, occurred_local AS occurredLocal, reason
       FROM unplaced_incidents ORDER BY imported_at DESC, file_row LIMIT ?`,
    )
    .all(limit) as UnplacedListed[];
}

/** The locator over the archive's places and the reference files added. */
export function buildLocator(db: Db): Locator {
  const locator = new Locator();
  const known = db.prepare(
    `SELECT address, lat, lon FROM incidents i
     WHERE address <> '' AND removed_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM incident_placements p WHERE p.cdid = i.cdid)`,
  );
  for (const r of known.raw().iterate() as Iterable<[string, number, number]>)
    locator.addKnown(r[0], r[1], r[2]);
  for (const r of db
    .prepare('SELECT street, number, lat, lon FROM place_reference_points')
    .raw()
    .iterate() as Iterable<[string, number, number, number]>)
    locator.addAddressPoint(r[0], r[1], r[2], r[3]);
  const lines = db.prepare('SELECT street, lfrom, lto, rfrom, rto, line FROM place_reference_lines').raw();
  for (const r of lines.iterate() as Iterable<
    [string, number | null, number | null, number | null, number | null, string]
  >)
    locator.addSegment({
      street: r[0],
      left: r[1] !== null && r[2] !== null ? [r[1], r[2]] : null,
      right: r[3] !== null && r[4] !== null ? [r[3], r[4]] : null,
      line: JSON.parse(r[5]) as [number, number][],
    });
  return locator;
}

/** Adds a reference file (address points or centre lines); its rows are kept in the archive. */
export function addReference(
  db: Db,
  file: string,
  now: number,
  name = basename(file),
): { id: number; kind: Reference['kind']; items: number; skipped: number } {
  const ref = readReference(file, name);
  const items = ref.kind === 'address points' ? ref.points.length : ref.segments.length;
  let id = 0;
  db.transaction(() => {
    id = Number(
      db
        .prepare('INSERT INTO place_references (file_name, kind, items, added_at) VALUES (?, ?, ?, ?)')
        .run(basename(name), ref.kind, items, now).lastInsertRowid,
    );
    if (ref.kind === 'address points') {
      const put = db.prepare(
        'INSERT INTO place_reference_points (ref_id, street, number, lat, lon) VALUES (?, ?, ?, ?, ?)',
      );
      for (const p of ref.points) put.run(id, p.street, p.number, p.lat, p.lon);
    } else {
      const put = db.prepare(
        'INSERT INTO place_reference_lines (ref_id, street, lfrom, lto, rfrom, rto, line) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      for (const s of ref.segments)
        put.run(
          id,
          s.street,
          s.left?.[0] ?? null,
          s.left?.[1] ?? null,
          s.right?.[0] ?? null,
          s.right?.[1] ?? null,
          JSON.stringify(s.line),
        );
    }
  }).immediate(); // IMMEDIATE: it may run on the import helper's own connection (store/writeTurns.ts)
  return { id, kind: ref.kind, items, skipped: ref.skipped };
}

type Stored = {
  cdid: number;
  type: string;
  address: string;
  occurred_local: string;
  timezone: string;
  description: string | null;
  external_id: string | null;
  attributes: string | null;
  file_name: string;
  mapping_name: string | null;
};

/**
 * Tries the locator on every unplaced row: a placed row moves into `incidents` (source 'import',
 * its provenance in `incident_imports`, how it was placed in `incident_placements`) in one
 * transaction; the rest stay, with the time of this try. Returns the placed cdids too, for the
 * query engine to read again.
 */
export function placeUnplaced(
  db: Db,
  now: number,
  locator = buildLocator(db),
): PlaceOutcome & { cdids: number[] } {
  const rows = db
    .prepare(
      `SELECT cdid, type, address, occurred_local, timezone, description, external_id, attributes, file_name, mapping_name
       FROM unplaced_incidents`,
    )
    .all() as Stored[];
  const byMethod: PlaceOutcome['byMethod'] = {};
  const cdids: number[] = [];
  const cols =
    'cdid, type, address, lat, lon, link, date_raw, occurred_local, timezone, occurred_utc, time_flag, local_day, local_hour, local_weekday, description, first_seen, last_seen, source';
  const insert = db.prepare(
    `INSERT INTO incidents (${cols}) VALUES (${cols
      .split(', ')
      .map(() => '?')
      .join(', ')}) ON CONFLICT (cdid) DO NOTHING`,
  );
  const run = db.prepare(
    'INSERT INTO import_runs (file_name, mapping_name, mapping_hash, imported_at) VALUES (?, ?, NULL, ?)',
  );
  const provenance = db.prepare(
    'INSERT OR REPLACE INTO incident_imports (cdid, run_id, external_id, attributes) VALUES (?, ?, ?, ?)',
  );
  const placement = db.prepare(
    'INSERT OR REPLACE INTO incident_placements (cdid, method, uncertainty_m, placed_at) VALUES (?, ?, ?, ?)',
  );
  const remove = db.prepare('DELETE FROM unplaced_incidents WHERE cdid = ?');
  const tried = db.prepare('UPDATE unplaced_incidents SET tried_at = ?');
  db.transaction(() => {
    const runs = new Map<string, number>();
    for (const r of rows) {
      const p = locator.place(r.address);
      if (!p) continue;
      const row = normalize(
        {
          cdid: r.cdid,
          type: r.type,
          address: r.address,
          lat: p.lat,
          lon: p.lon,
          occurred_local: r.occurred_local,
          timezone: r.timezone,
          ...(r.description !== null ? { description: r.description } : {}),
        },
        { unneutralise: false, namespaced: true },
      );
      if (!Array.isArray(row)) continue;
      const values = row.slice(0, 15);
      if (insert.run(...values, now, now, 'import').changes === 0) {
        remove.run(r.cdid); // the archive holds it already (placed since by another file)
        continue;
      }
      const key = `${r.file_name}\u0000${r.mapping_name ?? ''}`;
      let runId = runs.get(key);
      if (runId === undefined) {
        runId = Number(run.run(r.file_name, r.mapping_name, now).lastInsertRowid);
        runs.set(key, runId);
      }
      provenance.run(r.cdid, runId, r.external_id, r.attributes);
      placement.run(r.cdid, p.method, p.uncertaintyM, now);
      remove.run(r.cdid);
      byMethod[p.method] = (byMethod[p.method] ?? 0) + 1;
      cdids.push(r.cdid);
    }
    tried.run(now);
  }).immediate(); // IMMEDIATE: it may run on the import helper's own connection (store/writeTurns.ts)
  return { tried: rows.length, placed: cdids.length, byMethod, unplaced: rows.length - cdids.length, cdids };
}
