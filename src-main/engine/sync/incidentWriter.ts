/**
 * Upserts incidents from the API, keyed by cdid. New rows are inserted with their derived time
 * columns; known rows get last_seen, and — when type, address, place, date or link changed (an
 * amendment) — the new values; a row marked removed that comes back is revived. Counts what changed.
 * Runs inside the caller's transaction.
 */
import type { ApiIncident } from '../api/schemas';
import type { Db } from '../store/database';
import { incidentTime } from '../time/incidentTime';
import type { PageRow } from './frontier';

export type UpsertCounts = { new: number; updated: number };

type Existing = {
  type: string;
  address: string;
  lat: number;
  lon: number;
  link: string;
  date_raw: string;
  removed_at: number | null;
};

export type IncidentWriter = {
  /** Writes rows; `counts` decides per row whether it counts towards the area's figures. */
  upsert(
    rows: readonly ApiIncident[],
    now: number,
    counts: (lat: number, lon: number) => boolean,
  ): { counts: UpsertCounts; page: PageRow[] };
  setDescription(cdid: number, description: string | null, now: number): void;
};

export function createIncidentWriter(db: Db): IncidentWriter {
  const select = db.prepare<[number], Existing>(
    'SELECT type, address, lat, lon, link, date_raw, removed_at FROM incidents WHERE cdid = ?',
  );
  const insert = db.prepare(
    `INSERT INTO incidents (cdid, type, address, lat, lon, link, date_raw, occurred_local, timezone, occurred_utc,
       time_flag, local_day, local_hour, local_weekday, first_seen, last_seen)
     VALUES (@cdid, @type, @address, @lat, @lon, @link, @date_raw, @occurred_local, @timezone, @occurred_utc,
       @time_flag, @local_day, @local_hour, @local_weekday, @now, @now)`,
  );
  const seen = db.prepare<[number, number]>('UPDATE incidents SET last_seen = ? WHERE cdid = ?');
  const amend = db.prepare(
    `UPDATE incidents SET type = @type, address = @address, lat = @lat, lon = @lon, link = @link, date_raw = @date_raw,
       occurred_local = @occurred_local, timezone = @timezone, occurred_utc = @occurred_utc, time_flag = @time_flag,
       local_day = @local_day, local_hour = @local_hour, local_weekday = @local_weekday, last_seen = @now,
       removed_at = NULL, removed_reason = NULL
     WHERE cdid = @cdid`,
  );
  const describe = db.prepare<[string | null, number, number]>(
    'UPDATE incidents SET description = ?, description_fetched_at = ? WHERE cdid = ?',
  );

  return {
    upsert(rows, now, counts) {
      const c: UpsertCounts = { new: 0, updated: 0 };
      const page: PageRow[] = [];
      for (const r of rows) {
        const t = incidentTime(r.date, r.lat, r.lon);
        if (!t) throw new Error(`unreadable date ${r.date}`); // the schema already refused these
        page.push({
          cdid: r.cdid,
          lat: r.lat,
          lon: r.lon,
          type: r.type,
          utcMs: t.occurredUtc,
          zone: t.timezone,
        });
        const values = {
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
          now,
        };
        const old = select.get(r.cdid);
        const inArea = counts(r.lat, r.lon);
        if (!old) {
          insert.run(values);
          if (inArea) c.new++;
          continue;
        }
        const changed =
          old.type !== r.type ||
          old.address !== r.address ||
          old.lat !== r.lat ||
          old.lon !== r.lon ||
          old.link !== r.link ||
          old.date_raw !== r.date ||
          old.removed_at !== null;
        if (changed) {
          amend.run(values);
          if (inArea) c.updated++;
        } else seen.run(now, r.cdid);
      }
      return { counts: c, page };
    },
    setDescription(cdid, description, now) {
      describe.run(description, now, cdid);
    },
  };
}
