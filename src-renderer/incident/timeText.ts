/**
 * Times as an analyst reads them. An incident's time is its local wall time in its own zone (what
 * hour-of-day analysis is about), with the zone's abbreviation at that instant ("MDT"); the UTC
 * instant and the API's raw string are shown beside it in the panel. Times of Blotter's own doings
 * (first seen, last synced) are in this computer's zone. Every date comes from the one formatter,
 * src-shared/localTime.ts (the user's locale, the zone's abbreviation); this file names its uses.
 */
import { instantText, wallClockText, wallTimeText, zoneAbbreviation } from '../../src-shared/localTime';

export { zoneAbbreviation };

/** "Jul 4, 2026, 4:05 AM MDT" (the user's locale) from the local wall time YYYY-MM-DDTHH:MM. */
export function localTimeText(occurredLocal: string, zone: string, utcMs: number): string {
  return wallTimeText(occurredLocal, zone, utcMs);
}

/** "Sat, Jul 4, 2026, 4:05 AM" (the user's locale) from the local wall time, with its weekday. */
export function localDateLong(occurredLocal: string): string {
  return wallClockText(occurredLocal, { weekday: true });
}

/** "2026-07-04 10:05 UTC" from an ISO instant or epoch ms (the panel's exact UTC line). */
export function utcText(instant: string | number): string {
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return String(instant);
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** An epoch-ms moment of Blotter's own, in this computer's zone with its abbreviation. */
export function ownTimeText(ms: number): string {
  return instantText(ms);
}

/** "5 min ago", "3 h ago", "2 days ago" (for last synced). */
export function agoText(ms: number, now: number): string {
  const minutes = Math.round((now - ms) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}

/** What a daylight-saving flag means for this incident's time, in plain words. */
export function timeFlagText(flag: 'ambiguous' | 'nonexistent' | null): string | null {
  if (flag === 'ambiguous')
    return 'Ambiguous local time: the clocks went back that night, so this time happened twice. Blotter reads it as the first (earlier) one; the true instant may be an hour later.';
  if (flag === 'nonexistent')
    return 'Nonexistent local time: the clocks jumped forward that night, so this time never happened. Blotter reads it as an hour later (shifted past the gap).';
  return null;
}
