/** The one place an API incident becomes stored values: its own fields and its derived local time. */
import type { ApiIncident } from '../../api/schemas';
import { incidentTime } from '../../time/incidentTime';
import type { IncidentRecord } from './incidentRow';

export function recordOf(r: ApiIncident): IncidentRecord {
  const t = incidentTime(r.date, r.lat, r.lon);
  if (!t) throw new Error(`unreadable date ${r.date}`); // the schema already refused these
  return {
    cdid: r.cdid,
    type: r.type,
    address: r.address,
    lat: r.lat,
    lon: r.lon,
    link: r.link,
    date_raw: r.date,
    occurred_local: t.occurredLocal,
    timezone: t.timezone,
    occurred_utc: t.occurredUtc,
    time_flag: t.timeFlag,
    local_day: t.localDay,
    local_hour: t.localHour,
    local_weekday: t.localWeekday,
  };
}
