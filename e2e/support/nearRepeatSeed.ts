/**
 * A near-repeat pattern on top of the map seed: a quarter of the incidents happen again a day
 * later at the same block (new ids, the same place and type), so a Knox test finds its first cell
 * significant and has pairs to list.
 */
import path from 'node:path';
import Database from 'better-sqlite3';

export function plantNearRepeats(dataDir: string): number {
  const db = new Database(path.join(dataDir, 'blotter.sqlite'));
  try {
    return db
      .prepare(
        `INSERT INTO incidents (cdid, type, address, lat, lon, link, date_raw, occurred_local, timezone, occurred_utc,
           time_flag, local_day, local_hour, local_weekday, first_seen, last_seen)
         SELECT cdid + 5000000, type, address, lat, lon, link || '-again', date_raw,
           strftime('%Y-%m-%dT%H:%M', occurred_local, '+1 day'), timezone, occurred_utc + 86400000, time_flag,
           date(local_day, '+1 day'), local_hour, (local_weekday + 1) % 7, first_seen, last_seen
         FROM incidents WHERE cdid % 4 = 0 AND local_day < (SELECT max(local_day) FROM incidents)`,
      )
      .run().changes;
  } finally {
    db.close();
  }
}
