/**
 * The ordered list of migrations. A migration's number is its position + 1 and becomes
 * `PRAGMA user_version` once applied. Append only; never edit a migration that has shipped.
 */
import * as m001 from './001-initial';

export type Migration = { name: string; sql: string };

export const migrations: readonly Migration[] = [m001];
