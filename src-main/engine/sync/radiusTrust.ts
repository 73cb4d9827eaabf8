/**
 * What Blotter has learned, per base URL, about the radii a server answers correctly. The spec
 * recommends 0.01° or less and names no maximum ("larger values respond more slowly", which costs
 * nothing against a rate limit), so a first backfill starts from large circles; but a server may
 * refuse a large radius (400), slow beyond the timeout, or — worst — silently search a smaller one,
 * which would make a page look complete. So:
 *
 * - `trusted`: the largest radius seen searched in full (radiusGuard.ts's edge check), at least the
 *   spec's recommended 0.01°; a job at or below it is asked without a check.
 * - `max`: the largest radius worth asking, once a server refused, timed out or clamped; null until
 *   then. Jobs above it are split before they are asked.
 *
 * Kept as one JSON row per base URL in `settings` (key `apiRadius <base URL>`), written at once when
 * learned, so a killed process keeps what it learned.
 */
import type { Db } from '../store/database';
import { STANDARD_RADIUS } from '../geo/tiles';

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

const keyOf = (baseUrl: string): string => `apiRadius ${baseUrl}`;

export function readRadius(db: Db, baseUrl: string): RadiusKnowledge {
  const row = db
    .prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?')
    .get(keyOf(baseUrl));
  if (!row) return { ...DEFAULT_RADIUS_KNOWLEDGE };
  try {
    const v = JSON.parse(row.value) as Partial<RadiusKnowledge>;
    const trusted = typeof v.trusted === 'number' && v.trusted > 0 ? v.trusted : STANDARD_RADIUS;
    const max = typeof v.max === 'number' && v.max > 0 ? v.max : null;
    const reading = v.reading === 'great-circle' ? v.reading : null;
    return {
      trusted: max !== null ? Math.min(trusted, max) : trusted,
      max,
      reason: v.reason ?? null,
      reading,
    };
  } catch {
    return { ...DEFAULT_RADIUS_KNOWLEDGE };
  }
}

function write(db: Db, baseUrl: string, k: RadiusKnowledge, now: number): RadiusKnowledge {
  db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(keyOf(baseUrl), JSON.stringify({ ...k, observedAt: now }));
  return k;
}

/** A radius the server was seen to search in full. */
export function trustRadius(db: Db, baseUrl: string, radius: number, now: number): RadiusKnowledge {
  const k = readRadius(db, baseUrl);
  if (radius <= k.trusted) return k;
  return write(db, baseUrl, { ...k, trusted: k.max !== null ? Math.min(radius, k.max) : radius }, now);
}

/** The server refused, timed out or clamped at this radius: ask at most `max` from now on. */
export function limitRadius(
  db: Db,
  baseUrl: string,
  max: number,
  reason: string,
  now: number,
): RadiusKnowledge {
  const k = readRadius(db, baseUrl);
  const next = k.max !== null ? Math.min(k.max, max) : max;
  return write(db, baseUrl, { ...k, trusted: Math.min(k.trusted, next), max: next, reason }, now);
}

/** The server's answers showed it measures `radius` as great-circle degrees of arc. */
export function learnReading(db: Db, baseUrl: string, now: number): RadiusKnowledge {
  const k = readRadius(db, baseUrl);
  if (k.reading === 'great-circle') return k;
  return write(db, baseUrl, { ...k, reading: 'great-circle' }, now);
}
