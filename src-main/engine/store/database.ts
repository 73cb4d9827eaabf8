/**
 * Opens (and creates) the SQLite file: WAL, foreign keys, then every pending migration in one
 * transaction. Refuses a database written by a newer Blotter rather than risk damaging it.
 */
import Database from 'better-sqlite3';
import { migrations as allMigrations, type Migration } from './migrations/index';

export type Db = Database.Database;

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

export function openDatabase(file: string, migrations: readonly Migration[] = allMigrations): Db {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, migrations);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

export function migrate(db: Db, migrations: readonly Migration[] = allMigrations): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) throw new DatabaseTooNewError(current, migrations.length);
  if (current === migrations.length) return current;
  db.transaction(() => {
    for (const migration of migrations.slice(current)) db.exec(migration.sql);
    db.pragma(`user_version = ${migrations.length}`);
  }).immediate();
  return migrations.length;
}
