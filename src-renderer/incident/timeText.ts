/**
 * Times as an analyst reads them. An incident's time is its local wall time in its own zone (what
 * hour-of-day analysis is about), with the zone's abbreviation at that instant ("MDT"); the UTC
 * instant and the API's raw string are shown beside it in the panel. Times of Blotter's own doings
 * (first seen, last synced) are in this computer's zone.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

const zoneFormats = new Map<string, Intl.DateTimeFormat | null>();

function zoneFormat(zone: string): Intl.DateTimeFormat | null {
  if (!zoneFormats.has(zone)) {
    let format: Intl.DateTimeFormat | null = null;
    try {
      format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' });
    } catch {
      format = null; // an unknown zone name
    }
    zoneFormats.set(zone, format);
  }
  return zoneFormats.get(zone) ?? null;
}

/** The zone's short name at that instant ("MDT", "CST"), or the zone's name when it has none. */
export function zoneAbbreviation(zone: string, utcMs: number): string {
  const format = zoneFormat(zone);
  if (!format || !Number.isFinite(utcMs)) return zone;
  return format.formatToParts(new Date(utcMs)).find((p) => p.type === 'timeZoneName')?.value ?? zone;
}

/** "2026-07-04 04:05 MDT" from the local wall time YYYY-MM-DDTHH:MM. */
export function localTimeText(occurredLocal: string, zone: string, utcMs: number): string {
  return `${occurredLocal.replace('T', ' ')} ${zoneAbbreviation(zone, utcMs)}`;
}

/** "Sat 4 Jul 2026, 04:05" from the local wall time YYYY-MM-DDTHH:MM (calendar arithmetic only). */
export function localDateLong(occurredLocal: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(occurredLocal);
  if (!m) return occurredLocal;
  const [, y, mo, d, hh, mm] = m.map(Number) as [number, number, number, number, number, number];
  const weekday = DAYS[new Date(Date.UTC(y, mo - 1, d)).getUTCDay()];
  return `${weekday} ${d} ${MONTHS[mo - 1]} ${y}, ${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}`;
}

/** "2026-07-04 10:05 UTC" from an ISO instant or epoch ms. */
export function utcText(instant: string | number): string {
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return String(instant);
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** An epoch-ms moment of Blotter's own, in this computer's zone: "22 Nov 2026, 00:05". */
export function ownTimeText(ms: number): string {
  const d = new Date(ms);
  const hh = String(d.getHours()).padStart(2, '0');
  const mm = String(d.getMinutes()).padStart(2, '0');
  return `${d.getDate()} ${MONTHS[d.getMonth()]} ${d.getFullYear()}, ${hh}:${mm}`;
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
