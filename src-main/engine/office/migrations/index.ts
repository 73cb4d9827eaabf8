/**
 * The office database's migrations, in order: number = position + 1, recorded in
 * `office_schema.version` (migrate.ts). Append only; never edit one that has shipped.
 */
import * as m001 from './001-office';
import * as m002 from './002-sync-state';
import * as m003 from './003-incident-subtype';
import * as m004 from './004-server-profiles';

export type OfficeMigration = { name: string; sql: string };

export const officeMigrations: readonly OfficeMigration[] = [m001, m002, m003, m004];

export const OFFICE_SCHEMA_VERSION = officeMigrations.length;
