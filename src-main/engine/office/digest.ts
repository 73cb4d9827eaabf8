/**
 * One digest of an incident set, the same whether read from the office archive or a replica:
 * SHA-256 over every column of every row in cdid order. Equal digests: identical archives.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../store/database';
import { ALL_COLUMNS } from '../store/incidents/incidentRow';
import type { OfficePool } from './officeDb';

const SELECT = `SELECT ${ALL_COLUMNS.join(', ')} FROM incidents ORDER BY cdid`;

function digestOf(rows: Iterable<unknown[]>): { rows: number; digest: string } {
  const h = createHash('sha256');
  let n = 0;
  for (const r of rows) {
    h.update(JSON.stringify(r)).update('\n');
    n++;
  }
  return { rows: n, digest: h.digest('hex') };
}

export function replicaDigest(db: Db): { rows: number; digest: string } {
  return digestOf(db.prepare(SELECT).raw(true).iterate() as Iterable<unknown[]>);
}

export async function officeDigest(pool: OfficePool): Promise<{ rows: number; digest: string }> {
  const r = await pool.query<Record<string, unknown>>(SELECT);
  return digestOf(r.rows.map((row) => ALL_COLUMNS.map((c) => row[c] ?? null)));
}
