/**
 * Settings as one JSON row per field in the `settings` table, validated with zod on every read: a
 * corrupt or out-of-range row falls back to that field's default and is logged, never a crash.
 * The same table holds the data folder's profile id (which names its key in the keychain).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { DEFAULT_SETTINGS, Settings, SettingsPatch } from '../../../src-shared/settings';
import { createLogger, type Logger } from '../log';
import type { Db } from './database';

export interface SettingsRepo {
  get(): Settings;
  /** Writes the fields present in `patch` (in one transaction) and returns the settings now in force. */
  update(patch: SettingsPatch): Settings;
  /** This data folder's random, stable id, created on first use. */
  profileId(): string;
}

const FIELDS = Object.keys(Settings.shape) as (keyof Settings)[];
const PROFILE_KEY = 'profileId';
const ProfileId = z.uuid();

const UPSERT =
  'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value';

/** The one write of a `settings` row, as stored text (the fields below, the profile id, a secret's origin). */
export function putSetting(db: Db, key: string, value: string): void {
  db.prepare<[string, string]>(UPSERT).run(key, value);
}

/** A `settings` row's stored text; undefined when there is none. */
export function getSetting(db: Db, key: string): string | undefined {
  return db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?').get(key)?.value;
}

export function createSettingsRepo(db: Db, log: Logger = createLogger('settings')): SettingsRepo {
  const selectAll = db.prepare<[], { key: string; value: string }>('SELECT key, value FROM settings');
  const upsert = { run: (key: string, value: string) => putSetting(db, key, value) };
  const warned = new Set<string>();
  let profile: string | undefined;

  function readField(key: keyof Settings, raw: string): { ok: true; value: unknown } | { ok: false } {
    let problem: string;
    try {
      const parsed = Settings.shape[key].safeParse(JSON.parse(raw));
      if (parsed.success) return { ok: true, value: parsed.data };
      problem = parsed.error.issues.map((issue) => issue.message).join('; ');
    } catch (error) {
      problem = `not JSON (${(error as Error).message})`;
    }
    if (!warned.has(`${key}\0${raw}`)) {
      warned.add(`${key}\0${raw}`);
      log.warn('ignoring an invalid setting; using its default', { key, problem, stored: raw.slice(0, 200) });
    }
    return { ok: false };
  }

  function get(): Settings {
    const stored = new Map(selectAll.all().map((row) => [row.key, row.value]));
    const values: Record<string, unknown> = { ...DEFAULT_SETTINGS };
    for (const key of FIELDS) {
      const raw = stored.get(key);
      if (raw === undefined) continue;
      const field = readField(key, raw);
      if (field.ok) values[key] = field.value;
    }
    return values as Settings;
  }

  const writePatch = db.transaction((patch: SettingsPatch) => {
    for (const key of FIELDS) {
      if (patch[key] !== undefined) upsert.run(key, JSON.stringify(patch[key]));
    }
  });

  const getOrCreateProfile = db.transaction((): string => {
    const raw = getSetting(db, PROFILE_KEY);
    if (raw !== undefined) {
      const parsed = ProfileId.safeParse(safeJson(raw));
      if (parsed.success) return parsed.data;
      log.warn('the stored profile id is invalid; creating a new one (the API key must be entered again)');
    }
    const id = randomUUID();
    upsert.run(PROFILE_KEY, JSON.stringify(id));
    return id;
  });

  return {
    get,
    update(patch) {
      writePatch.immediate(SettingsPatch.parse(patch));
      return get();
    },
    profileId: () => (profile ??= getOrCreateProfile.immediate()),
  };
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
