/**
 * An incident's `date` → what the store keeps: the local wall time as printed, the IANA zone at its
 * lat/lon, the instant (see wallToInstant for the DST rule), the DST flag, and the local day, hour and
 * weekday that hour-of-day and weekday analysis use.
 */
import { parseLegacyDate, wallDay, wallIso, wallWeekday } from './legacyDate';
import { wallToInstant, type TimeFlag } from './wallToInstant';
import { zoneAt } from './zoneAt';

export type IncidentTime = {
  occurredLocal: string;
  timezone: string;
  occurredUtc: number;
  timeFlag: TimeFlag | null;
  localDay: string;
  localHour: number;
  localWeekday: number;
};

/** The stored time of an incident, or null when `date` is not in the legacy format. */
export function incidentTime(
  date: string,
  lat: number,
  lon: number,
  zone = zoneAt(lat, lon),
): IncidentTime | null {
  const wall = parseLegacyDate(date);
  if (!wall) return null;
  const instant = wallToInstant(wall, zone);
  return {
    occurredLocal: wallIso(wall),
    timezone: zone,
    occurredUtc: instant.utcMs,
    timeFlag: instant.flag,
    localDay: wallDay(wall),
    localHour: wall.hour,
    localWeekday: wallWeekday(wall),
  };
}
