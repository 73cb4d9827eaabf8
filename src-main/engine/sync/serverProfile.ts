/**
 * What Blotter has learned about a server, one profile per base URL (table `server_profiles`,
 * migration 018; office mode: the office database's copy too, engine/office/leader.ts), so a killed
 * process, a later run and — in an office — another desktop's leader start from it:
 *
 * - `radius`: the radii the server answers correctly (radiusGuard.ts). The spec recommends 0.01° or
 *   less and names no maximum, but a server may refuse a large radius (400), slow beyond the
 *   timeout, or silently search a smaller one, which would make a page look complete. `trusted`:
 *   the largest radius seen searched in full, at least the spec's 0.01° (a job at or below it is
 *   asked without a check); `max`: the largest worth asking once a server refused, timed out or
 *   clamped (null until then); `reading`: how it measures the radius, once its answers showed it.
 * - `typesSpelling`: how a `types` filter is spelled so the server matches it (typesSpelling.ts).
 * - `pageMax`: the longest page it has answered (pageCap.ts).
 * - `sinceBeforeWindow`: what it does with a since older than the window, learned by earlier
 *   versions (windowStart.ts `sendableSince`).
 * - `surface`: its v1 surface as last probed (surfaceSelect.ts, surfaceVerify.ts).
 *
 * Everything a run decides from the profile is a pure function of it (below); `createProfileBook`
 * is the one place that reads the row and records what is learned, at once.
 */
import { STANDARD_RADIUS } from '../geo/tiles';
import type { Db } from '../store/database';
import { DAY } from './constants';
import type { TypesSpelling } from './typesSpelling';
import type { SinceBeforeWindow } from './windowStart';

export type RadiusKnowledge = {
  trusted: number;
  max: number | null;
  /** Why `max` was set, in plain words (for the log). */
  reason: string | null;
  /**
   * How the server measures `radius`, once its answers showed it (radiusEvidence.ts `readingOf`):
   * 'great-circle' — circles are then asked as ground circles (`sentRadius`); null: not known, and
   * circles are asked in degree space, which covers the area under either reading.
   */
  reading?: 'great-circle' | null;
};

export const DEFAULT_RADIUS_KNOWLEDGE: RadiusKnowledge = {
  trusted: STANDARD_RADIUS,
  max: null,
  reason: null,
};

/**
 * absent: /v1/incidents is not answered (404/501: not live yet); verified: its first pages matched
 * the live surface (ids = cdids, occurred_at consistent with the live date); mismatch: they did not;
 * unverified: the probe could not decide (no incidents to compare, or no answer).
 */
export type SurfaceState = 'absent' | 'verified' | 'mismatch' | 'unverified';

export type SurfaceRecord = {
  baseUrl: string;
  probedAt: number;
  state: SurfaceState;
  reason: string;
  /** Whether /v1/history answered for this key's plan; null until asked. */
  history: boolean | null;
};

export type ServerProfile = {
  baseUrl: string;
  radius: RadiusKnowledge;
  typesSpelling: TypesSpelling;
  /** The longest page this base URL has answered (0 before any). */
  pageMax: number;
  sinceBeforeWindow: SinceBeforeWindow;
  surface: SurfaceRecord | null;
};

/** At most one v1 probe a day per base URL. */
export const PROBE_EVERY_MS = DAY;

export const blankProfile = (baseUrl: string): ServerProfile => ({
  baseUrl,
  radius: { ...DEFAULT_RADIUS_KNOWLEDGE, reading: null },
  typesSpelling: 'every-case',
  pageMax: 0,
  sinceBeforeWindow: 'unknown',
  surface: null,
});

// --- the stored form ---------------------------------------------------------------------------

type Stored = {
  radius?: Partial<RadiusKnowledge> | null;
  typesSpelling?: string | null;
  pageMax?: number | null;
  sinceBeforeWindow?: string | null;
  surface?: Omit<SurfaceRecord, 'baseUrl'> | null;
};

const SPELLINGS: readonly string[] = ['every-case', 'as-seen', 'lower'];
const STATES: readonly string[] = ['absent', 'verified', 'mismatch', 'unverified'];

/** A stored profile as a run reads it: anything unreadable falls back to what a new server gets. */
export function decodeProfile(baseUrl: string, json: string): ServerProfile {
  const p = blankProfile(baseUrl);
  let v: Stored;
  try {
    v = JSON.parse(json) as Stored;
  } catch {
    return p;
  }
  const r = v.radius;
  if (r) {
    const trusted = typeof r.trusted === 'number' && r.trusted > 0 ? r.trusted : STANDARD_RADIUS;
    const max = typeof r.max === 'number' && r.max > 0 ? r.max : null;
    p.radius = {
      trusted: max !== null ? Math.min(trusted, max) : trusted,
      max,
      reason: r.reason ?? null,
      reading: r.reading === 'great-circle' ? r.reading : null,
    };
  }
  if (v.typesSpelling && SPELLINGS.includes(v.typesSpelling))
    p.typesSpelling = v.typesSpelling as TypesSpelling;
  if (typeof v.pageMax === 'number' && Number.isFinite(v.pageMax) && v.pageMax > 0) p.pageMax = v.pageMax;
  if (v.sinceBeforeWindow === 'window' || v.sinceBeforeWindow === 'empty')
    p.sinceBeforeWindow = v.sinceBeforeWindow;
  const s = v.surface;
  if (s && typeof s.probedAt === 'number' && STATES.includes(s.state))
    p.surface = {
      baseUrl,
      probedAt: s.probedAt,
      state: s.state,
      reason: String(s.reason ?? ''),
      history: typeof s.history === 'boolean' ? s.history : null,
    };
  return p;
}

export function encodeProfile(p: ServerProfile): string {
  const stored: Stored = {
    radius: p.radius,
    typesSpelling: p.typesSpelling,
    pageMax: p.pageMax,
    sinceBeforeWindow: p.sinceBeforeWindow === 'unknown' ? null : p.sinceBeforeWindow,
    surface: p.surface
      ? {
          probedAt: p.surface.probedAt,
          state: p.surface.state,
          reason: p.surface.reason,
          history: p.surface.history,
        }
      : null,
  };
  return JSON.stringify(stored);
}

export function readProfile(db: Db, baseUrl: string): ServerProfile {
  const row = db
    .prepare<[string], { profile: string }>('SELECT profile FROM server_profiles WHERE base_url = ?')
    .get(baseUrl);
  return row ? decodeProfile(baseUrl, row.profile) : blankProfile(baseUrl);
}

export function writeProfile(db: Db, p: ServerProfile, now: number): void {
  db.prepare(
    `INSERT INTO server_profiles (base_url, profile, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (base_url) DO UPDATE SET profile = excluded.profile, updated_at = excluded.updated_at`,
  ).run(p.baseUrl, encodeProfile(p), now);
}

/** The most recently probed base URL's v1 record (the status of an area shows the service in use). */
export function latestSurface(db: Db): SurfaceRecord | null {
  const rows = db
    .prepare<[], { base_url: string; profile: string }>(
      `SELECT base_url, profile FROM server_profiles WHERE json_extract(profile, '$.surface') IS NOT NULL
        ORDER BY json_extract(profile, '$.surface.probedAt') DESC LIMIT 1`,
    )
    .all();
  const r = rows[0];
  return r ? decodeProfile(r.base_url, r.profile).surface : null;
}

// --- what is learned (pure) --------------------------------------------------------------------

/** A radius the server was seen to search in full. */
export function trustRadius(p: ServerProfile, radius: number): ServerProfile {
  const k = p.radius;
  if (radius <= k.trusted) return p;
  return { ...p, radius: { ...k, trusted: k.max !== null ? Math.min(radius, k.max) : radius } };
}

/** The server refused, timed out or clamped at this radius: ask at most `max` from now on. */
export function limitRadius(p: ServerProfile, max: number, reason: string): ServerProfile {
  const k = p.radius;
  const next = k.max !== null ? Math.min(k.max, max) : max;
  return { ...p, radius: { ...k, trusted: Math.min(k.trusted, next), max: next, reason } };
}

/** The server's answers showed it measures `radius` as great-circle degrees of arc. */
export function learnReading(p: ServerProfile): ServerProfile {
  return p.radius.reading === 'great-circle' ? p : { ...p, radius: { ...p.radius, reading: 'great-circle' } };
}

/** The server answered a typed query spelled this way. */
export const learnTypesSpelling = (p: ServerProfile, spelling: TypesSpelling): ServerProfile =>
  p.typesSpelling === spelling ? p : { ...p, typesSpelling: spelling };

/** The server answered a page of `n` distinct rows. */
export const sawPage = (p: ServerProfile, n: number): ServerProfile =>
  n <= p.pageMax ? p : { ...p, pageMax: n };

/** A v1 probe's finding (the history answer, asked apart, is kept). */
export const probedSurface = (p: ServerProfile, rec: SurfaceRecord): ServerProfile => ({
  ...p,
  surface: { ...rec, baseUrl: p.baseUrl, history: p.surface?.history ?? null },
});

/** A v1 run met a 404: v1 went away; the next run goes back to the live surface. */
export const surfaceGone = (p: ServerProfile, reason: string, now: number): ServerProfile => ({
  ...p,
  surface: {
    baseUrl: p.baseUrl,
    probedAt: now,
    state: 'absent',
    reason,
    history: p.surface?.history ?? null,
  },
});

/** Whether /v1/history answered (a finished history run) or was refused (a 400). */
export const historyAnswered = (p: ServerProfile, answered: boolean): ServerProfile =>
  p.surface ? { ...p, surface: { ...p.surface, history: answered } } : p;

// --- what is decided from it (pure) ------------------------------------------------------------

/** Whether the base URL's v1 surface should be probed now. */
export function probeDue(p: ServerProfile, now: number): boolean {
  const rec = p.surface;
  return rec === null || now - rec.probedAt >= PROBE_EVERY_MS || now < rec.probedAt;
}

/** The surface new runs use for this base URL: v1 only once verified. */
export const surfaceOf = (p: Pick<ServerProfile, 'surface'>): 'live' | 'v1' =>
  p.surface?.state === 'verified' ? 'v1' : 'live';

/** Whether a short page of `n` distinct rows is believed without asking again (pageCap.ts). */
export const shortPageProven = (p: ServerProfile, n: number, round: number): boolean =>
  n % round !== 0 || n < p.pageMax;

// --- the one reader and recorder ---------------------------------------------------------------

/** Where a leader's learning also goes (office mode: the office database). */
export type ProfileMirror = (p: ServerProfile) => Promise<void>;

export type ProfileBook = {
  /** The profile as it stands. */
  get(): ServerProfile;
  /** Applies what was learned to the profile as it stands and keeps it (nothing when unchanged). */
  learn(change: (p: ServerProfile) => ServerProfile): Promise<ServerProfile>;
};

export function createProfileBook(
  db: Db,
  baseUrl: string,
  now: () => number,
  mirror?: ProfileMirror,
  /** The write in the engine's write turn (store/writeTurns.ts); absent: at once. */
  inTurn: <T>(write: () => T) => Promise<T> = async (write) => write(),
): ProfileBook {
  return {
    get: () => readProfile(db, baseUrl),
    async learn(change) {
      let kept = false;
      const next = await inTurn(() => {
        const held = readProfile(db, baseUrl);
        const changed = change(held);
        if (encodeProfile(changed) === encodeProfile(held)) return held;
        writeProfile(db, changed, now());
        kept = true;
        return changed;
      });
      if (kept) await mirror?.(next);
      return next;
    },
  };
}
