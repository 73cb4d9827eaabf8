/**
 * Opens (and creates) the SQLite file: checks the schema version first (without writing), then WAL,
 * foreign keys and every pending migration in one transaction. Refuses a database written by a
 * newer Blotter rather than risk damaging it; a failed migration leaves the file at its old version.
 */
import Database from 'better-sqlite3';
import { BUSY_TIMEOUT_MS, localFailureOf } from './localFailure';
import { migrations as allMigrations, type Migration } from './migrations/index';

export type Db = Database.Database;

/** The schema version this build of Blotter writes. */
export const SCHEMA_VERSION = allMigrations.length;

export class DatabaseTooNewError extends Error {
  constructor(
    readonly fileVersion: number,
    readonly appVersion: number,
  ) {
    super(
      `This data file was written by a newer version of Blotter (schema ${fileVersion}; this app knows up ` +
        `to ${appVersion}). Update Blotter, or open a different data folder with --data-dir.`,
    );
    this.name = 'DatabaseTooNewError';
  }
}

export class DatabaseOpenError extends Error {
  constructor(file: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const hint = /not a database|malformed/i.test(reason)
      ? 'It is not a Blotter data file, or it is damaged. Restore a backup, or open a different data folder with --data-dir.'
      : 'Check that the data folder exists and is writable, or open a different one with --data-dir.';
    super(`Cannot open the data file ${file}: ${reason}. ${hint}`, { cause });
    this.name = 'DatabaseOpenError';
  }
}

export class MigrationError extends Error {
  constructor(number: number, name: string, fromVersion: number, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `Could not upgrade the data file (migration ${number} "${name}" failed: ${reason}). ` +
        `The file was left unchanged at schema ${fromVersion}.`,
      { cause },
    );
    this.name = 'MigrationError';
  }
}

export function openDatabase(file: string, migrations: readonly Migration[] = allMigrations): Db {
  let db: Db;
  try {
    db = new Database(file);
  } catch (error) {
    throw localFailureOf(error, file) ?? new DatabaseOpenError(file, error);
  }
  try {
    // Writers wait this long for another's write lock (another Blotter on the same folder).
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Before anything writes (journal_mode rewrites the header): a file from the future stays untouched.
    checkVersion(db, migrations);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db, migrations);
    return db;
  } catch (error) {
    db.close();
    if (error instanceof DatabaseTooNewError) throw error;
    const local = localFailureOf(error, file);
    if (local) throw local;
    if (error instanceof MigrationError) throw error;
    throw new DatabaseOpenError(file, error);
  }
}

export function userVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Applies every pending migration in one IMMEDIATE transaction; returns the new user_version. */
export function migrate(db: Db, migrations: readonly Migration[] = allMigrations): number {
  if (checkVersion(db, migrations) === migrations.length) return migrations.length;
  return db
    .transaction(() => {
      const current = checkVersion(db, migrations); // again, under the write lock: another process may have won
      migrations.forEach((migration, index) => {
        if (index < current) return;
        try {
          if ('sql' in migration) db.exec(migration.sql);
          else migration.up(db);
        } catch (error) {
          throw new MigrationError(index + 1, migration.name, current, error);
        }
      });
      db.pragma(`user_version = ${migrations.length}`);
      return migrations.length;
    })
    .immediate();
}

function checkVersion(db: Db, migrations: readonly Migration[]): number {
  const current = userVersion(db);
  if (current > migrations.length) throw new DatabaseTooNewError(current, migrations.length);
  return current;
}
