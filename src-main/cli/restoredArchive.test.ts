/**
 * A restored backup, as the README describes it (quit, replace `blotter.sqlite`, delete the
 * leftover -wal and -shm): the saved snapshot beside the file (`blotter.sqlite.snapshot`) is then
 * behind it, and every command's output must still be the new file's — each process used to exit
 * before its background re-read ended, so `status` and `export` answered from the old snapshot for
 * ever.
 */
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDatabase } from '../../bench/seed';
import { dbFileOf } from '../engine/dataDir';
import { makeTempDir, type TempDir } from '../engine/testing/tempDir';
import { CLI, runEntry } from './cliTesting';

let dir: TempDir;
let data: string;
let backup: string;

/** What a file holds, counted by SQL: live incidents and those marked removed. */
function held(file: string): { live: number; removed: number } {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare(
        'SELECT count(*) FILTER (WHERE removed_at IS NULL) AS live, count(*) FILTER (WHERE removed_at IS NOT NULL) AS removed FROM incidents',
      )
      .get() as { live: number; removed: number };
  } finally {
    db.close();
  }
}

const blotter = (args: string[]) => runEntry(CLI, [...args, '--data-dir', data]);
const storedLine = (out: string): string | undefined => /^Incidents: .*$/m.exec(out)?.[0];

beforeAll(() => {
  dir = makeTempDir('blotter-cli-restore-');
  data = `${dir.path}/data`;
  mkdirSync(data);
  seedDatabase(dbFileOf(data), { count: 300, seed: 3, endDay: '2025-03-14', days: 120 });
  // The backup: another archive, four times the size (another file id, another change counter).
  backup = `${dir.path}/backup.sqlite`;
  seedDatabase(backup, { count: 1200, seed: 5, endDay: '2025-03-14', days: 120 });
});
afterAll(() => dir.remove());

describe('a restored blotter.sqlite', () => {
  it('status and export answer the new file’s counts, not the saved snapshot’s', async () => {
    const before = await blotter(['status']);
    expect(before.code, before.stderr).toBe(0);
    const old = held(dbFileOf(data));
    expect(storedLine(before.stdout)).toContain(
      `Incidents: ${old.live} stored (${old.removed} marked removed)`,
    );
    const saved = `${dbFileOf(data)}.snapshot`;
    expect(existsSync(saved)).toBe(true); // the snapshot the next session starts from

    // The README's restore steps.
    copyFileSync(backup, dbFileOf(data));
    for (const f of [`${dbFileOf(data)}-wal`, `${dbFileOf(data)}-shm`]) rmSync(f, { force: true });
    const now = held(dbFileOf(data));
    expect(now.live).toBeGreaterThan(old.live * 3);

    const status = await blotter(['status']);
    expect(status.code, status.stderr).toBe(0);
    expect(storedLine(status.stdout)).toContain(
      `Incidents: ${now.live} stored (${now.removed} marked removed)`,
    );

    const exported = await blotter(['export', '--format', 'csv', '--preset', 'all']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain(`export: ${now.live} incidents written`);
    const rows = exported.stdout.trim().split('\n').length - 1; // less the header
    expect(rows).toBe(now.live);

    // The re-read was saved: a later session starts current from it, with the same answer.
    const again = await blotter(['status']);
    expect(storedLine(again.stdout)).toContain(`Incidents: ${now.live} stored`);
  });
});
