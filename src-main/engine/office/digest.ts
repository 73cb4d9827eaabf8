/**
 * One digest of an incident set, the same whether read from the office archive or a replica:
 * SHA-256 over every column of every row in cdid order. Equal digests: identical archives.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../store/database';
import { ALL_COLUMNS } from '../store/incidents/incidentRow';
import type { OfficePool } from './officeDb';

const SELECT = `SELECT ${ALL_COLUMNS.join(', ')} FROM incidents ORDER BY cdid`;

/**
 * What the API said of each incident, without the times a sync saw it (first/last seen, removal,
 * description fetch): equal between archives synced at different moments from the same answers.
 */
export const CONTENT_COLUMNS = ALL_COLUMNS.filter(
  (c) => !['first_seen', 'last_seen', 'removed_at', 'description_fetched_at'].includes(c),
);
const CONTENT = `SELECT ${CONTENT_COLUMNS.join(', ')} FROM incidents ORDER BY cdid`;

function digestOf(rows: Iterable<unknown[]>): { rows: number; digest: string } {
  const h = createHash('sha256');
  let n = 0;
  for (const r of rows) {
    h.update(JSON.stringify(r)).update('\n');
    n++;
  }
  return { rows: n, digest: h.digest('hex') };
}

/** Every column (`content`: CONTENT_COLUMNS only). */
export function replicaDigest(db: Db, content = false): { rows: number; digest: string } {
  return digestOf(
    db
      .prepare(content ? CONTENT : SELECT)
      .raw(true)
      .iterate() as Iterable<unknown[]>,
  );
}

export async function officeDigest(
  pool: OfficePool,
  content = false,
): Promise<{ rows: number; digest: string }> {
  const r = await pool.query<Record<string, unknown>>(content ? CONTENT : SELECT);
  const cols = content ? CONTENT_COLUMNS : ALL_COLUMNS;
  return digestOf(r.rows.map((row) => cols.map((c) => row[c] ?? null)));
}
