/**
 * Where a run starts. The spec: "When since is older than the plan's data window, the request
 * succeeds with no results" — so a too-old `since` looks exactly like an empty tile, and a since
 * kept safely inside the window never asks for the window's first days. A run that reaches back to
 * the window's start therefore sends no `since` (NO_SINCE): the server's own window start. What a
 * server does with an old since (its profile's `sinceBeforeWindow`, serverProfile.ts, learned by
 * earlier versions) only lets a stored frontier that aged out of the window be sent as it is.
 */
import { addDays, dayOfNumber } from '../time/localDay';
import { DAY } from './constants';
import { nextSince } from './frontier';

export type SinceBeforeWindow = 'window' | 'empty' | 'unknown';

/** The earliest `since` that is surely not "older than the window": the UTC day after its start. */
export function safeSince(now: number, windowDays: number): string {
  return dayOfNumber(Math.floor((now - windowDays * DAY) / DAY) + 1);
}

/** A `since` that covers every incident reported at or after `fromUtc` in `zone`. */
export const sinceFor = (fromUtc: number, zone: string): string => nextSince(fromUtc, zone);

/** A since that is certainly older than the window (tests: what a stale since looks like). */
export function staleSince(now: number, windowDays: number): string {
  return addDays(safeSince(now, windowDays), -10);
}

/**
 * No `since` at all: the server's own window start (the spec makes `since` optional). A run that
 * wants everything back to the window's start asks that way, never a since computed from our idea
 * of where the window starts (a since a little too old answers nothing on a server that follows the
 * spec, and one a little too young skips the window's first days for good). Stored as a job's since.
 */
export const NO_SINCE = '';

/**
 * The roots' since for a run that wants everything reported from `fromUtc` on: none when that
 * reaches back to the window's first days (`safeSince` or before), else the covering since.
 */
export function rootSince(fromUtc: number, zone: string, now: number, windowDays: number): string {
  const wanted = sinceFor(fromUtc, zone);
  return wanted < safeSince(now, windowDays) ? NO_SINCE : wanted;
}

/**
 * The since actually sent: a stored frontier that has aged out of the window (a run resumed later)
 * is sent as no since — the whole window, a superset — unless the server is known to serve the
 * window for an old since.
 */
export function sendableSince(
  since: string,
  now: number,
  windowDays: number,
  quirk: SinceBeforeWindow,
): string {
  if (since === NO_SINCE || quirk === 'window') return since;
  return since < safeSince(now, windowDays) ? NO_SINCE : since;
}
