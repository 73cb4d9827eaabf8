/**
 * Where a backfill can start. The spec: "When since is older than the plan's data window, the request
 * succeeds with no results" — so a too-old `since` looks exactly like an empty tile. Some servers
 * serve the window anyway. We learn which, once per base URL (quirks), and until then stay on the
 * safe side of the window.
 */
import type { Db } from '../store/database';
import { addDays, dayOfNumber } from '../time/localDay';
import { DAY } from './constants';
import { nextSince } from './frontier';

export type SinceBeforeWindow = 'window' | 'empty' | 'unknown';

export function readQuirk(db: Db, baseUrl: string): SinceBeforeWindow {
  const row = db
    .prepare<[string], { v: 'window' | 'empty' }>(
      'SELECT since_before_window AS v FROM api_quirks WHERE base_url = ?',
    )
    .get(baseUrl);
  return row?.v ?? 'unknown';
}

export function writeQuirk(db: Db, baseUrl: string, value: 'window' | 'empty', now: number): void {
  db.prepare(
    `INSERT INTO api_quirks (base_url, since_before_window, observed_at) VALUES (?, ?, ?)
     ON CONFLICT (base_url) DO UPDATE SET since_before_window = excluded.since_before_window, observed_at = excluded.observed_at`,
  ).run(baseUrl, value, now);
}

/** The earliest `since` that is surely not "older than the window": the UTC day after its start. */
export function safeSince(now: number, windowDays: number): string {
  return dayOfNumber(Math.floor((now - windowDays * DAY) / DAY) + 1);
}

/** A `since` that covers every incident reported at or after `fromUtc` in `zone`. */
export const sinceFor = (fromUtc: number, zone: string): string => nextSince(fromUtc, zone);

/** A since that is certainly older than the window (for learning the quirk). */
export function staleSince(now: number, windowDays: number): string {
  return addDays(safeSince(now, windowDays), -10);
}

/** The roots' since for a run that wants everything reported from `fromUtc` on. */
export function rootSince(
  fromUtc: number,
  zone: string,
  now: number,
  windowDays: number,
  quirk: SinceBeforeWindow,
): string {
  const wanted = sinceFor(fromUtc, zone);
  if (quirk === 'window') return wanted;
  const safe = safeSince(now, windowDays);
  return wanted < safe ? safe : wanted;
}

/** The since actually sent: a stored frontier clamped into the window when old since values answer nothing. */
export function sendableSince(
  since: string,
  now: number,
  windowDays: number,
  quirk: SinceBeforeWindow,
): string {
  if (quirk === 'window') return since;
  const safe = safeSince(now, windowDays);
  return since < safe ? safe : since;
}
