import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../../testing/tempDir';
import { openDatabase } from '../database';
import { migrations } from './index';

let dir: TempDir | null = null;
afterEach(() => dir?.remove());

describe('migration 003 (sync-tail)', () => {
  it('keeps the jobs of a schema-2 file and accepts tail jobs afterwards', () => {
    dir = makeTempDir();
    const file = `${dir.path}/old.sqlite`;
    const old = openDatabase(file, migrations.slice(0, 2));
    old
      .prepare(
        "INSERT INTO areas (id, name, kind, center_lat, center_lon, radius_mi, min_lat, min_lon, max_lat, max_lon, created_at) VALUES (1, 'a', 'circle', 1, 2, 1, 0, 0, 3, 3, 0)",
      )
      .run();
    old
      .prepare(
        "INSERT INTO sync_runs (id, area_id, kind, state, started_at) VALUES (1, 1, 'backfill', 'running', 0)",
      )
      .run();
    const job = old.prepare(
      `INSERT INTO sync_jobs (id, run_id, parent_id, lat, lon, radius, cell_min_lat, cell_max_lat, cell_min_lon, cell_max_lon, since, mode, updated_at)
       VALUES (?, 1, ?, 1, 2, 0.01, 0, 1, 0, 1, '2025-01-01', ?, 0)`,
    );
    job.run(1, null, 'asc');
    job.run(2, 1, 'desc');
    expect(() => job.run(3, 1, 'tail')).toThrow(/CHECK/);
    old.close();

    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(db.prepare('SELECT id, parent_id, mode FROM sync_jobs ORDER BY id').all()).toEqual([
      { id: 1, parent_id: null, mode: 'asc' },
      { id: 2, parent_id: 1, mode: 'desc' },
    ]);
    db.prepare(
      `INSERT INTO sync_jobs (id, run_id, parent_id, lat, lon, radius, cell_min_lat, cell_max_lat, cell_min_lon, cell_max_lon, since, mode, updated_at)
       VALUES (3, 1, 1, 1, 2, 0.01, 0, 1, 0, 1, '2025-01-01', 'tail', 0)`,
    ).run();
    expect(() => db.prepare('UPDATE sync_jobs SET parent_id = 99 WHERE id = 3').run()).toThrow(/FOREIGN KEY/);
    db.prepare('DELETE FROM sync_jobs WHERE id = 1').run();
    expect(db.prepare('SELECT count(*) AS n FROM sync_jobs').get()).toEqual({ n: 0 });
    db.close();
  });
});
