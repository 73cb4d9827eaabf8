/**
 * Local wall time → UTC instant for an IANA zone, fast enough for a million rows: Intl offsets
 * cached per zone and UTC hour (US transitions happen on whole hours). Flags local times that
 * happen twice (ambiguous: the earlier instant is taken) or never (nonexistent: read with the
 * offset in force before the gap, which moves it forward).
 */
const HOUR = 3_600_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, Map<number, number>>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's offset from UTC in ms at `utcMs` (e.g. -5 h for EST). */
export function offsetMs(timeZone: string, utcMs: number): number {
  const hour = Math.floor(utcMs / HOUR);
  let zone = offsets.get(timeZone);
  if (!zone) offsets.set(timeZone, (zone = new Map()));
  const cached = zone.get(hour);
  if (cached !== undefined) return cached;
  const at = hour * HOUR;
  const p: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(at))
    if (part.type !== 'literal') p[part.type] = +part.value;
  const wall = Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0);
  const offset = wall - at;
  zone.set(hour, offset);
  return offset;
}

export type LocalInstant = { utc: number; flag: 'ambiguous' | 'nonexistent' | null };

/** The instant of local wall time `wallMs` (the wall clock read as if it were UTC) in `timeZone`. */
export function wallToUtc(timeZone: string, wallMs: number): LocalInstant {
  // Probe half a day outside the local day (whole-day points, so a few Intl calls per zone and day).
  const dayStart = Math.floor(wallMs / (24 * HOUR)) * 24 * HOUR;
  const before = offsetMs(timeZone, dayStart - 12 * HOUR);
  const after = offsetMs(timeZone, dayStart + 36 * HOUR);
  if (before === after) return { utc: wallMs - before, flag: null };
  const valid = [before, after].filter((o) => offsetMs(timeZone, wallMs - o) === o);
  if (valid.length === 2) return { utc: wallMs - Math.max(before, after), flag: 'ambiguous' };
  if (valid.length === 1) return { utc: wallMs - (valid[0] as number), flag: null };
  return { utc: wallMs - before, flag: 'nonexistent' };
}
