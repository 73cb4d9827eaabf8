/**
 * The office database's migrations, in order: number = position + 1, recorded in
 * `office_schema.version` (migrate.ts). Append only; never edit one that has shipped.
 */
import * as m001 from './001-office';

export type OfficeMigration = { name: string; sql: string };

export const officeMigrations: readonly OfficeMigration[] = [m001];

export const OFFICE_SCHEMA_VERSION = officeMigrations.length;
