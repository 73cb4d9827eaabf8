/**
 * What Blotter knows of a base URL's v1 surface (table api_surfaces): when /v1/incidents was last
 * probed and what came of it, in words a status line can show. At most one probe a day per base
 * URL (PROBE_EVERY_MS); the live surface is used until a probe has verified v1.
 */
import type { Db } from '../store/database';
import { DAY } from './constants';

export const PROBE_EVERY_MS = DAY;

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

type Row = {
  base_url: string;
  probed_at: number;
  state: SurfaceState;
  reason: string;
  history: 'yes' | 'no' | null;
};

export function readSurface(db: Db, baseUrl: string): SurfaceRecord | null {
  const r = db.prepare<[string], Row>('SELECT * FROM api_surfaces WHERE base_url = ?').get(baseUrl);
  if (!r) return null;
  return {
    baseUrl: r.base_url,
    probedAt: r.probed_at,
    state: r.state,
    reason: r.reason,
    history: r.history === null ? null : r.history === 'yes',
  };
}

export function writeSurface(db: Db, rec: SurfaceRecord): void {
  db.prepare(
    `INSERT INTO api_surfaces (base_url, probed_at, state, reason, history) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (base_url) DO UPDATE SET probed_at = excluded.probed_at, state = excluded.state,
       reason = excluded.reason, history = excluded.history`,
  ).run(
    rec.baseUrl,
    rec.probedAt,
    rec.state,
    rec.reason,
    rec.history === null ? null : rec.history ? 'yes' : 'no',
  );
}

/** Whether the base URL's v1 surface should be probed now. */
export function probeDue(rec: SurfaceRecord | null, now: number): boolean {
  return rec === null || now - rec.probedAt >= PROBE_EVERY_MS || now < rec.probedAt;
}

/** The surface new runs use for this base URL: v1 only once verified. */
export const surfaceOf = (rec: SurfaceRecord | null): 'live' | 'v1' =>
  rec?.state === 'verified' ? 'v1' : 'live';

/** The most recently probed base URL's record (the status of an area shows the service in use). */
export function latestSurface(db: Db): SurfaceRecord | null {
  const r = db
    .prepare<[], { base_url: string }>('SELECT base_url FROM api_surfaces ORDER BY probed_at DESC LIMIT 1')
    .get();
  return r ? readSurface(db, r.base_url) : null;
}
