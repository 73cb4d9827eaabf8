/**
 * What Blotter learned about a server, in one row per base URL (sync/serverProfile.ts): folds the
 * five stores it lived in — the settings rows `apiRadius <url>`, `apiTypes <url>`, `apiPageMax <url>`
 * and the tables api_quirks and api_surfaces — into `server_profiles`, its learning kept as it was.
 * The profile is JSON (one shape for this file and the office database's copy):
 *   { radius: { trusted, max, reason, reading } | null, typesSpelling: string | null,
 *     pageMax: number | null, sinceBeforeWindow: 'window' | 'empty' | null,
 *     surface: { probedAt, state, reason, history } | null }
 */
import type Database from 'better-sqlite3';

export const name = 'server-profiles';

type Profile = {
  radius: Record<string, unknown> | null;
  typesSpelling: string | null;
  pageMax: number | null;
  sinceBeforeWindow: string | null;
  surface: { probedAt: number; state: string; reason: string; history: boolean | null } | null;
};

export function up(db: Database.Database): void {
  db.exec(`
CREATE TABLE server_profiles (
  base_url    TEXT    PRIMARY KEY,
  profile     TEXT    NOT NULL CHECK (json_valid(profile)),
  updated_at  INTEGER NOT NULL
) STRICT;
`);
  const profiles = new Map<string, Profile>();
  const updated = new Map<string, number>();
  const of = (url: string): Profile => {
    let p = profiles.get(url);
    if (!p) {
      p = { radius: null, typesSpelling: null, pageMax: null, sinceBeforeWindow: null, surface: null };
      profiles.set(url, p);
    }
    return p;
  };
  const touch = (url: string, at: unknown): void => {
    const n = typeof at === 'number' && Number.isFinite(at) ? at : 0;
    updated.set(url, Math.max(updated.get(url) ?? 0, n));
  };
  const rows = db
    .prepare<[], { key: string; value: string }>(
      "SELECT key, value FROM settings WHERE key LIKE 'apiRadius %' OR key LIKE 'apiTypes %' OR key LIKE 'apiPageMax %'",
    )
    .all();
  for (const { key, value } of rows) {
    const space = key.indexOf(' ');
    const kind = key.slice(0, space);
    const url = key.slice(space + 1);
    if (kind === 'apiRadius') {
      try {
        const v = JSON.parse(value) as Record<string, unknown>;
        const { observedAt, ...radius } = v;
        of(url).radius = radius;
        touch(url, observedAt);
      } catch {
        of(url); // unreadable: the defaults, as before
      }
    } else if (kind === 'apiTypes') of(url).typesSpelling = value;
    else {
      const n = Number(value);
      of(url).pageMax = Number.isFinite(n) && n > 0 ? n : null;
    }
  }
  for (const q of db
    .prepare<[], { base_url: string; since_before_window: string; observed_at: number }>(
      'SELECT * FROM api_quirks',
    )
    .all()) {
    of(q.base_url).sinceBeforeWindow = q.since_before_window;
    touch(q.base_url, q.observed_at);
  }
  for (const s of db
    .prepare<
      [],
      { base_url: string; probed_at: number; state: string; reason: string; history: string | null }
    >('SELECT * FROM api_surfaces')
    .all()) {
    of(s.base_url).surface = {
      probedAt: s.probed_at,
      state: s.state,
      reason: s.reason,
      history: s.history === null ? null : s.history === 'yes',
    };
    touch(s.base_url, s.probed_at);
  }
  const insert = db.prepare('INSERT INTO server_profiles (base_url, profile, updated_at) VALUES (?, ?, ?)');
  for (const [url, p] of profiles) insert.run(url, JSON.stringify(p), updated.get(url) ?? 0);
  db.exec(`
DELETE FROM settings WHERE key LIKE 'apiRadius %' OR key LIKE 'apiTypes %' OR key LIKE 'apiPageMax %';
DROP TABLE api_quirks;
DROP TABLE api_surfaces;
`);
}
