/**
 * The ordered list of migrations. A migration's number is its position + 1 and becomes
 * `PRAGMA user_version` once applied. Append only; never edit a migration that has shipped.
 * A migration is SQL, or a function for data migrations that need code; all pending ones run in
 * one transaction (see ../database.ts).
 */
import type Database from 'better-sqlite3';
import * as m001 from './001-initial';
import * as m002 from './002-sync';
import * as m003 from './003-sync-tail';
import * as m004 from './004-unused-indexes';
import * as m005 from './005-shared-sync';
import * as m006 from './006-incident-changes';
import * as m007 from './007-alerts';
import * as m008 from './008-office-replica';
import * as m009 from './009-box-index';
import * as m010 from './010-reference-layers';
import * as m011 from './011-sync-surface';
import * as m012 from './012-import-provenance';
import * as m013 from './013-sync-fair-bound';
import * as m014 from './014-fts-no-column-sizes';
import * as m015 from './015-office-skipped';
import * as m016 from './016-report-schedules';
import * as m017 from './017-incident-subtype';
import * as m018 from './018-server-profiles';
import * as m019 from './019-unplaced-incidents';
import * as m020 from './020-report-schedule-features';

export type Migration = { name: string } & ({ sql: string } | { up: (db: Database.Database) => void });

export const migrations: readonly Migration[] = [
  m001,
  m002,
  m003,
  m004,
  m005,
  m006,
  m007,
  m008,
  m009,
  m010,
  m011,
  m012,
  m013,
  m014,
  m015,
  m016,
  m017,
  m018,
  m019,
  m020,
];
