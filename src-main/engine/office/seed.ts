/**
 * Seeding an empty office from the first desktop's standalone archive (`office join --seed`,
 * Settings › Office): its areas (ids kept), coverage ledger and incidents (whole rows) go to
 * PostgreSQL in one transaction, under a lock so two desktops cannot both seed; the folder then
 * joins as every other desktop does — its file cleared and pulled back from the office, so the
 * replica is exactly the office's archive (same digest as the folder had).
 */
import type { Db } from '../store/database';
import { ALL_COLUMNS, type IncidentRow } from '../store/incidents/incidentRow';
import { yieldToEventLoop } from '../eventLoop';
import { putOfficeIncidents } from './officeArchive';
import { inTransaction, type OfficePool } from './officeDb';
import { AREA_COLUMNS } from './replica';

const SEED_LOCK = 4242004202;
/** Local incidents per read, and per upload to PostgreSQL. */
const READ_ROWS = 2_000;
const UPLOAD_ROWS = 10_000;

export class OfficeNotEmptyError extends Error {
  override name = 'OfficeNotEmptyError';
}

export async function officeIsEmpty(pool: OfficePool): Promise<boolean> {
  const r = await pool.query<{ n: number }>(
    'SELECT (SELECT count(*) FROM (SELECT 1 FROM incidents LIMIT 1) i) + (SELECT count(*) FROM (SELECT 1 FROM areas LIMIT 1) a) AS n',
  );
  return Number(r.rows[0]!.n) === 0;
}

/** Uploads the folder's archive into an empty office; returns what went. */
export async function seedOffice(
  pool: OfficePool,
  db: Db,
): Promise<{ areas: number; coverage: number; incidents: number }> {
  return inTransaction(pool, async (c) => {
    await c.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK]);
    const held = await c.query<{ n: number }>(
      'SELECT (SELECT count(*) FROM incidents) + (SELECT count(*) FROM areas) AS n',
    );
    if (Number(held.rows[0]!.n) > 0)
      throw new OfficeNotEmptyError(
        'The office database already holds an archive: it cannot be seeded again.',
      );
    const areas = db.prepare(`SELECT ${AREA_COLUMNS.join(', ')} FROM areas ORDER BY id`).all() as Record<
      string,
      unknown
    >[];
    for (const a of areas)
      await c.query(
        `INSERT INTO areas (${AREA_COLUMNS.join(', ')}) VALUES (${AREA_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
        AREA_COLUMNS.map((k) => a[k] ?? null),
      );
    if (areas.length > 0)
      await c.query("SELECT setval(pg_get_serial_sequence('areas', 'id'), (SELECT max(id) FROM areas))");
    const coverage = db.prepare('SELECT area_id, tile, day, status, checked_at FROM coverage').all() as {
      area_id: number;
      tile: string;
      day: string;
      status: string;
      checked_at: number;
    }[];
    for (let i = 0; i < coverage.length; i += 10_000) {
      const page = coverage.slice(i, i + 10_000);
      await c.query(
        `INSERT INTO coverage (area_id, tile, day, status, checked_at)
         SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::bigint[])`,
        [
          page.map((r) => r.area_id),
          page.map((r) => r.tile),
          page.map((r) => r.day),
          page.map((r) => r.status),
          page.map((r) => r.checked_at),
        ],
      );
    }
    // Read by keyset pages, a turn of the event loop between (issue 31): no statement stays open
    // on the connection across the uploads' awaits, and no read holds the engine thread long.
    let incidents = 0;
    let page: IncidentRow[] = [];
    const after = db.prepare<[number], IncidentRow>(
      `SELECT ${ALL_COLUMNS.join(', ')} FROM incidents WHERE cdid > ? ORDER BY cdid LIMIT ${READ_ROWS}`,
    );
    for (let last = -Infinity; ;) {
      const rows = after.all(last);
      if (rows.length === 0) break;
      last = rows[rows.length - 1]!.cdid;
      page.push(...rows);
      if (page.length >= UPLOAD_ROWS) {
        await putOfficeIncidents(c, page);
        incidents += page.length;
        page = [];
      } else await yieldToEventLoop();
    }
    await putOfficeIncidents(c, page);
    incidents += page.length;
    return { areas: areas.length, coverage: coverage.length, incidents };
  });
}
