import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '../../testing/tempDir';
import { openDatabase } from '../database';
import { migrations } from './index';

let dir: TempDir | null = null;
afterEach(() => dir?.remove());

describe('migration 020 (report-schedule-features)', () => {
  it('keeps an older file’s area schedules as they were, and a schedule has exactly one target', () => {
    dir = makeTempDir();
    const file = `${dir.path}/old.sqlite`;
    const old = openDatabase(file, migrations.slice(0, 19));
    old
      .prepare(
        `INSERT INTO areas (id, name, kind, center_lat, center_lon, radius_mi, min_lat, min_lon, max_lat, max_lon, created_at)
         VALUES (1, 'Loop', 'circle', 41.88, -87.63, 1, 41.86, -87.65, 41.9, -87.61, 0)`,
      )
      .run();
    old
      .prepare(
        `INSERT INTO report_schedules (id, area_id, weekday, time, paper, recipients, created_at, last_due_at, last_sent_at, last_error)
         VALUES (5, 1, 3, '18:30', 'a4', '["chief@office.test"]', 10, 20, 30, 'refused')`,
      )
      .run();
    old.close();

    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(db.prepare('SELECT * FROM report_schedules').all()).toEqual([
      {
        id: 5,
        area_id: 1,
        feature_id: null,
        weekday: 3,
        time: '18:30',
        paper: 'a4',
        recipients: '["chief@office.test"]',
        created_at: 10,
        last_due_at: 20,
        last_sent_at: 30,
        last_error: 'refused',
        claimed_until: null,
      },
    ]);
    const add = db.prepare(
      `INSERT INTO report_schedules (area_id, feature_id, weekday, time, created_at) VALUES (?, ?, 1, '07:00', 0)`,
    );
    expect(() => add.run(null, null)).toThrow(/CHECK/);
    // Its area's removal still removes it.
    db.prepare('DELETE FROM areas WHERE id = 1').run();
    expect(db.prepare('SELECT count(*) FROM report_schedules').pluck().get()).toBe(0);
    db.close();
  });
});
