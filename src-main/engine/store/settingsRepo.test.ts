import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../src-shared/settings';
import type { Logger } from '../log';
import { makeTempDir, type TempDir } from '../testing/tempDir';
import { openDatabase, type Db } from './database';
import { createSettingsRepo, getSetting, putSetting } from './settingsRepo';

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const none = () => undefined;
  return {
    name: 'test',
    debug: none,
    info: none,
    error: none,
    warn: (m, f) => warnings.push(`${m} ${JSON.stringify(f)}`),
    warnings,
  };
}

describe('settings repo', () => {
  let tmp: TempDir;
  let db: Db;
  beforeEach(() => {
    tmp = makeTempDir();
    db = openDatabase(path.join(tmp.path, 'blotter.sqlite'));
  });
  afterEach(() => {
    db.close();
    tmp.remove();
  });

  it('writes every settings row through one upsert: the repo, the profile id and a secret origin read what putSetting wrote', () => {
    expect(getSetting(db, 'apiKeyOrigin')).toBeUndefined();
    putSetting(db, 'ratePerMinute', '120');
    putSetting(db, 'ratePerMinute', '240');
    expect(getSetting(db, 'ratePerMinute')).toBe('240');
    expect(createSettingsRepo(db).get().ratePerMinute).toBe(240);
    createSettingsRepo(db).update({ plan: 'enterprise' });
    expect(getSetting(db, 'plan')).toBe('"enterprise"');
  });

  it('starts from the defaults and round-trips every field through the file', () => {
    const repo = createSettingsRepo(db);
    expect(repo.get()).toEqual(DEFAULT_SETTINGS);
    const updated = repo.update({
      baseUrl: 'https://api.example.com/',
      plan: 'enterprise',
      ratePerMinute: 900,
    });
    expect(updated).toEqual({
      baseUrl: 'https://api.example.com',
      plan: 'enterprise',
      ratePerMinute: 900,
      windowDays: null,
    });
    expect(createSettingsRepo(db).get()).toEqual(updated); // a fresh repo reads the same rows
    expect(repo.update({ baseUrl: null }).baseUrl).toBeNull(); // null is a value, not "unchanged"
    expect(repo.get().plan).toBe('enterprise');
  });

  it('refuses an invalid patch without writing any of it', () => {
    const repo = createSettingsRepo(db);
    expect(() => repo.update({ plan: 'pro-annual', ratePerMinute: -1 })).toThrow();
    expect(() => repo.update({ baseUrl: 'ftp://x' } as never)).toThrow();
    expect(repo.get()).toEqual(DEFAULT_SETTINGS);
  });

  it('falls back to the default for a corrupt or invalid row, logs it once, and keeps the others', () => {
    const log = recordingLogger();
    const repo = createSettingsRepo(db, log);
    repo.update({ plan: 'pro-monthly', windowDays: 30 });
    const put = db.prepare('UPDATE settings SET value = ? WHERE key = ?');
    put.run('{not json', 'plan');
    put.run('-5', 'windowDays');
    db.prepare("INSERT INTO settings (key, value) VALUES ('baseUrl', '\"javascript:alert(1)\"')").run();
    expect(repo.get()).toEqual(DEFAULT_SETTINGS);
    expect(repo.get()).toEqual(DEFAULT_SETTINGS);
    expect(log.warnings).toHaveLength(3);
    expect(log.warnings.join('\n')).toMatch(/"key":"plan","problem":"not JSON/);
    repo.update({ plan: 'pro-annual' });
    expect(repo.get().plan).toBe('pro-annual'); // writing a field repairs its row
  });

  it('creates the profile id once and keeps it across opens', () => {
    const first = createSettingsRepo(db).profileId();
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(createSettingsRepo(db).profileId()).toBe(first);
    expect(createSettingsRepo(db).get()).toEqual(DEFAULT_SETTINGS); // not a setting
  });

  it('replaces a corrupt profile id', () => {
    db.prepare("INSERT INTO settings (key, value) VALUES ('profileId', '\"nope\"')").run();
    const log = recordingLogger();
    const id = createSettingsRepo(db, log).profileId();
    expect(id).not.toBe('nope');
    expect(createSettingsRepo(db).profileId()).toBe(id);
    expect(log.warnings).toHaveLength(1);
  });
});
