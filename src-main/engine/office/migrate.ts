/**
 * Creates and migrates the office schema, under a transaction-level advisory lock so several
 * desktops joining at once migrate it once (the others wait, then find it current). The version
 * and the office's id live in `office_schema`; a version newer than this app knows is refused
 * (OfficeSchemaTooNewError): an older Blotter must not write to a schema it does not understand.
 * PostGIS must already be installed by the database's owner (README: least-privilege role).
 */
import type pg from 'pg';
import { officeMigrations, type OfficeMigration } from './migrations';
import { inTransaction, type OfficePool } from './officeDb';

const MIGRATE_LOCK = 4242004201;

export class OfficeSchemaTooNewError extends Error {
  override name = 'OfficeSchemaTooNewError';
}
export class OfficeSetupError extends Error {
  override name = 'OfficeSetupError';
}

export type OfficeSchema = { version: number; officeId: string; applied: number };

export async function migrateOffice(
  pool: OfficePool,
  migrations: readonly OfficeMigration[] = officeMigrations,
): Promise<OfficeSchema> {
  return inTransaction(pool, async (c: pg.PoolClient) => {
    await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATE_LOCK]);
    const postgis = await c.query("SELECT 1 FROM pg_extension WHERE extname = 'postgis'");
    if (postgis.rowCount === 0)
      throw new OfficeSetupError(
        'PostGIS is not installed in the office database: its owner runs CREATE EXTENSION postgis; once (see engine/office/README.md).',
      );
    await c.query(
      `CREATE TABLE IF NOT EXISTS office_schema (
         id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL, office_id text NOT NULL)`,
    );
    await c.query(
      'INSERT INTO office_schema (id, version, office_id) VALUES (1, 0, gen_random_uuid()::text) ON CONFLICT DO NOTHING',
    );
    const row = (
      await c.query<{ version: number; office_id: string }>('SELECT version, office_id FROM office_schema')
    ).rows[0]!;
    if (row.version > migrations.length)
      throw new OfficeSchemaTooNewError(
        `The office database has schema ${row.version}, newer than this Blotter knows (${migrations.length}): update Blotter on this desktop.`,
      );
    for (let v = row.version; v < migrations.length; v++) await c.query(migrations[v]!.sql);
    await c.query('UPDATE office_schema SET version = $1', [migrations.length]);
    return { version: migrations.length, officeId: row.office_id, applied: migrations.length - row.version };
  });
}
