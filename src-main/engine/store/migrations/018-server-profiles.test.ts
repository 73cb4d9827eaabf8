import { afterEach, describe, expect, it } from 'vitest';
import { readProfile } from '../../sync/serverProfile';
import { makeTempDir, type TempDir } from '../../testing/tempDir';
import { openDatabase } from '../database';
import { migrations } from './index';

let dir: TempDir | null = null;
afterEach(() => dir?.remove());

const A = 'https://api.example.test';
const B = 'http://127.0.0.1:9999';

describe('migration 018 (server-profiles)', () => {
  it('folds the five stores of what was learned about a server into one profile per base URL', () => {
    dir = makeTempDir();
    const file = `${dir.path}/old.sqlite`;
    const old = openDatabase(file, migrations.slice(0, 15));
    const setting = old.prepare('INSERT INTO settings (key, value) VALUES (?, ?)');
    setting.run(
      `apiRadius ${A}`,
      JSON.stringify({
        trusted: 0.05,
        max: 0.04,
        reason: 'refused radius 0.08° (400)',
        reading: 'great-circle',
        observedAt: 5,
      }),
    );
    setting.run(`apiTypes ${A}`, 'as-seen');
    setting.run(`apiPageMax ${A}`, '331');
    setting.run(`apiTypes ${B}`, 'lower');
    setting.run('windowDays', '90');
    old.prepare("INSERT INTO api_quirks VALUES (?, 'window', 7)").run(A);
    old.prepare("INSERT INTO api_surfaces VALUES (?, 9, 'verified', 'v1 verified', 'no')").run(B);
    old.close();

    const db = openDatabase(file);
    const a = readProfile(db, A);
    // The radius row's clamp holds as it did (trusted never above max).
    expect(a.radius).toEqual({
      trusted: 0.04,
      max: 0.04,
      reason: 'refused radius 0.08° (400)',
      reading: 'great-circle',
    });
    expect(a).toMatchObject({
      typesSpelling: 'as-seen',
      pageMax: 331,
      sinceBeforeWindow: 'window',
      surface: null,
    });
    const b = readProfile(db, B);
    expect(b).toMatchObject({ typesSpelling: 'lower', pageMax: 0, sinceBeforeWindow: 'unknown' });
    expect(b.surface).toEqual({
      baseUrl: B,
      probedAt: 9,
      state: 'verified',
      reason: 'v1 verified',
      history: false,
    });
    expect(readProfile(db, 'https://never.test')).toMatchObject({
      pageMax: 0,
      surface: null,
      typesSpelling: 'every-case',
    });
    // The old stores are gone; other settings stay.
    const keys = db.prepare('SELECT key FROM settings ORDER BY key').pluck().all();
    expect(keys).toEqual(['windowDays']);
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE name IN ('api_quirks', 'api_surfaces', 'server_profiles')",
      )
      .pluck()
      .all();
    expect(tables).toEqual(['server_profiles']);
    const stamps = db.prepare('SELECT base_url, updated_at FROM server_profiles ORDER BY base_url').all();
    expect(stamps).toEqual([
      { base_url: B, updated_at: 9 },
      { base_url: A, updated_at: 7 },
    ]);
    db.close();
  });
});
